// Packages, cores, caches and NUMA nodes of a machine file. Package groups are the compact form
// ("4 packages × 4 cores, an L2 shared by each pair"); top-level caches and a NUMA node list are the
// explicit form for what is not regular (memory behind a hub, a memory-side cache).

import { packageVertex, type CacheSpec, type CoreSpec, type NumaNodeSpec, type PackageSpec } from '../spec.ts';
import { MAX_CORES, readCoreSet } from './core-set.ts';
import type { Origins } from './origins.ts';
import { readBandwidth, readFrequency, readSize, readTime } from './units.ts';
import type { MapReader, YamlValue } from '../../common/yaml/value.ts';

const GROUP_KEYS = ['count', 'model', 'cores', 'threads', 'frequency', 'caches'] as const;
const PACKAGE_CACHE_KEYS = ['level', 'size', 'sharedBy', 'bandwidth', 'latency', 'peerLatency', 'victim'] as const;
const CACHE_KEYS = [
  'id',
  'level',
  'size',
  'cores',
  'bandwidth',
  'latency',
  'peerLatency',
  'memorySide',
  'victim',
] as const;
/** What a NUMA node gives in either form. */
const NUMA_FIELDS = ['memory', 'bandwidth', 'latency', 'peerLatency', 'kind', 'writeCost', 'writeBandwidth'] as const;
const NUMA_COMPACT_KEYS = ['perPackage', ...NUMA_FIELDS] as const;
const NUMA_NODE_KEYS = ['attach', 'packages', 'cores', ...NUMA_FIELDS] as const;
const MEMORY_KINDS = ['dram', 'hbm'] as const;

export interface Compute {
  packages: PackageSpec[];
  cores: CoreSpec[];
  caches: CacheSpec[];
  numaNodes: NumaNodeSpec[];
}

interface PendingCore {
  id: number;
  package: number;
  frequencyGHz: number;
  threads: number;
  group: YamlValue;
  frequency: YamlValue;
  threadsNode: YamlValue | undefined;
}

export function buildCompute(root: MapReader, origins: Origins): Compute {
  const packages: PackageSpec[] = [];
  const pending: PendingCore[] = [];
  const caches: CacheSpec[] = [];
  const perLevel = new Map<number, number>();
  const cacheId = (level: number) => {
    const n = perLevel.get(level) ?? 0;
    perLevel.set(level, n + 1);
    return `L${level}#${n}`;
  };

  const groups = root.req('packages').items();
  if (groups.length === 0) root.req('packages').fail('a machine needs at least one package');
  for (const groupNode of groups) {
    const group = groupNode.map(GROUP_KEYS);
    const countNode = group.get('count');
    const count = countNode?.integer(1) ?? 1;
    const model = group.req('model').text();
    const coresNode = group.req('cores');
    const coresPer = coresNode.integer(1);
    const threadsNode = group.get('threads');
    const threads = threadsNode?.integer(1) ?? 1;
    const frequencyNode = group.req('frequency');
    const frequencyGHz = readFrequency(frequencyNode);
    if (pending.length + count * coresPer > MAX_CORES) {
      // The larger factor is the likelier typo: point at it.
      const culprit = countNode && count > coresPer ? countNode : coresNode;
      culprit.fail(`${count} packages of ${coresPer} cores: more than ${MAX_CORES} cores in the machine`);
    }
    const cacheEntries = (group.get('caches')?.items() ?? []).map((node) => readPackageCache(node, coresPer));

    for (let k = 0; k < count; k++) {
      const pkg = packages.length;
      packages.push({ id: pkg, model });
      origins.set(`packages[${pkg}]`, groupNode);
      const first = pending.length;
      for (let c = 0; c < coresPer; c++) {
        pending.push({
          id: first + c,
          package: pkg,
          frequencyGHz,
          threads,
          group: groupNode,
          frequency: frequencyNode,
          threadsNode,
        });
      }
      for (const entry of cacheEntries) {
        for (let start = 0; start < coresPer; start += entry.sharedBy) {
          const index = caches.length;
          const cores = Array.from({ length: entry.sharedBy }, (_, j) => first + start + j);
          caches.push({
            id: cacheId(entry.level),
            level: entry.level,
            sizeBytes: entry.sizeBytes,
            cores,
            bandwidth: entry.bandwidth,
            latencyNs: entry.latencyNs,
            ...(entry.peerLatencyNs !== undefined ? { peerLatencyNs: entry.peerLatencyNs } : {}),
            ...(entry.victim ? { victim: true } : {}),
          });
          recordCache(origins, index, entry.fields);
        }
      }
    }
  }
  const allCores = pending.map((c) => c.id);

  for (const node of root.get('caches')?.items() ?? []) {
    const m = node.map(CACHE_KEYS);
    const level = m.req('level').integer(1);
    const memorySide = m.get('memorySide')?.boolean() ?? false;
    const victim = m.get('victim')?.boolean() ?? false;
    const coresNode = m.get('cores');
    if (!coresNode && !memorySide) m.req('cores');
    const cores = coresNode ? readCoreSet(coresNode, allCores) : [...allCores];
    const index = caches.length;
    const peerLatency = m.get('peerLatency');
    caches.push({
      id: m.get('id')?.text() ?? cacheId(level),
      level,
      sizeBytes: readSize(m.req('size')),
      cores,
      bandwidth: readBandwidth(m.req('bandwidth')),
      latencyNs: readTime(m.req('latency')),
      ...(peerLatency ? { peerLatencyNs: readTime(peerLatency) } : {}),
      ...(memorySide ? { memorySide } : {}),
      ...(victim ? { victim } : {}),
    });
    origins.set(`caches[${index}]`, node);
    recordCache(origins, index, {
      id: m.get('id'),
      level: m.get('level'),
      size: m.get('size'),
      cores: coresNode,
      bandwidth: m.get('bandwidth'),
      latency: m.get('latency'),
      peerLatency,
    });
  }

  const { numaNodes, coreNuma } = buildNuma(root, packages, pending, origins);
  const cores: CoreSpec[] = pending.map((c, i) => {
    origins.set(`cores[${i}]`, c.group);
    origins.set(`cores[${i}].frequencyGHz`, c.frequency);
    origins.set(`cores[${i}].threads`, c.threadsNode);
    return { id: c.id, package: c.package, numa: coreNuma[i], frequencyGHz: c.frequencyGHz, threads: c.threads };
  });
  return { packages, cores, caches, numaNodes };
}

interface PackageCache {
  level: number;
  sizeBytes: number;
  sharedBy: number;
  bandwidth: number;
  latencyNs: number;
  peerLatencyNs?: number;
  victim: boolean;
  fields: Record<string, YamlValue | undefined>;
}

function readPackageCache(node: YamlValue, coresPer: number): PackageCache {
  const m = node.map(PACKAGE_CACHE_KEYS);
  const peerLatency = m.get('peerLatency');
  const sharedByNode = m.get('sharedBy');
  let sharedBy = 1;
  if (sharedByNode) {
    sharedBy =
      sharedByNode.kind() === 'scalar' && sharedByNode.required('a core count') === 'package'
        ? coresPer
        : sharedByNode.integer(1);
    if (coresPer % sharedBy !== 0)
      sharedByNode.fail(`a cache shared by ${sharedBy} cores does not divide a package of ${coresPer} cores`);
  }
  return {
    level: m.req('level').integer(1),
    sizeBytes: readSize(m.req('size')),
    sharedBy,
    bandwidth: readBandwidth(m.req('bandwidth')),
    latencyNs: readTime(m.req('latency')),
    ...(peerLatency ? { peerLatencyNs: readTime(peerLatency) } : {}),
    victim: m.get('victim')?.boolean() ?? false,
    fields: {
      level: m.get('level'),
      size: m.get('size'),
      cores: sharedByNode ?? node,
      bandwidth: m.get('bandwidth'),
      latency: m.get('latency'),
      peerLatency,
    },
  };
}

function recordCache(origins: Origins, index: number, fields: Record<string, YamlValue | undefined>): void {
  const f = `caches[${index}]`;
  origins.set(`${f}.id`, fields.id);
  origins.set(`${f}.level`, fields.level);
  origins.set(`${f}.sizeBytes`, fields.size);
  origins.set(`${f}.cores`, fields.cores);
  origins.set(`${f}.bandwidth`, fields.bandwidth);
  origins.set(`${f}.latencyNs`, fields.latency);
  origins.set(`${f}.peerLatencyNs`, fields.peerLatency);
}

function buildNuma(root: MapReader, packages: PackageSpec[], cores: PendingCore[], origins: Origins) {
  const numaNode = root.req('numa');
  const numaNodes: NumaNodeSpec[] = [];
  const coreNuma: (number | undefined)[] = cores.map(() => undefined);
  const record = (id: number, node: YamlValue, m: MapReader) => {
    origins.set(`numaNodes[${id}]`, node);
    origins.set(`numaNodes[${id}].attach`, m.get('attach'));
    origins.set(`numaNodes[${id}].memoryBytes`, m.get('memory'));
    origins.set(`numaNodes[${id}].bandwidth`, m.get('bandwidth'));
    origins.set(`numaNodes[${id}].latencyNs`, m.get('latency'));
    origins.set(`numaNodes[${id}].peerLatencyNs`, m.get('peerLatency'));
    origins.set(`numaNodes[${id}].writeCost`, m.get('writeCost'));
    origins.set(`numaNodes[${id}].writeBandwidth`, m.get('writeBandwidth'));
  };
  /** How much of the controller's bandwidth one written byte takes (bus turnarounds); absent: 1. */
  const writeCost = (m: MapReader): { writeCost?: number } => {
    const node = m.get('writeCost');
    if (!node) return {};
    const cost = node.number();
    if (!(cost >= 1))
      node.fail(`writeCost must be at least 1 (a written byte takes at least its own bandwidth), got ${cost}`);
    return { writeCost: cost };
  };
  /** A line's trip between the node's cores that share no cache, where the file gives it. */
  const peer = (m: MapReader): { peerLatencyNs?: number } => {
    const node = m.get('peerLatency');
    return node ? { peerLatencyNs: readTime(node) } : {};
  };
  /** Write lanes of their own (FB-DIMM): their bandwidth; a turnaround cost then has no bus to turn. */
  const writes = (m: MapReader): { writeCost?: number; writeBandwidth?: number } => {
    const lanes = m.get('writeBandwidth');
    if (!lanes) return writeCost(m);
    if (m.get('writeCost'))
      lanes.fail(
        'writeBandwidth gives writes lanes of their own, so no bus turns around between reads and writes: drop writeCost',
      );
    return { writeBandwidth: readBandwidth(lanes) };
  };

  if (numaNode.kind() === 'map') {
    const m = numaNode.map(NUMA_COMPACT_KEYS);
    const perPackageNode = m.get('perPackage');
    const perPackage = perPackageNode?.integer(1) ?? 1;
    const memoryBytes = readSize(m.req('memory'));
    const bandwidth = readBandwidth(m.req('bandwidth'));
    const latencyNs = readTime(m.req('latency'));
    const kind = m.get('kind')?.oneOf(MEMORY_KINDS) ?? 'dram';
    for (const pkg of packages) {
      const local = cores.map((c, i) => ({ c, i })).filter(({ c }) => c.package === pkg.id);
      if (local.length % perPackage !== 0)
        (perPackageNode ?? numaNode).fail(
          `package ${pkg.id} has ${local.length} cores, which do not split evenly into ${perPackage} NUMA nodes`,
        );
      const share = local.length / perPackage;
      for (let k = 0; k < perPackage; k++) {
        const id = numaNodes.length;
        numaNodes.push({
          id,
          attach: packageVertex(pkg.id),
          memoryBytes,
          bandwidth,
          latencyNs,
          ...peer(m),
          kind,
          ...writes(m),
        });
        record(id, numaNode, m);
        local.slice(k * share, (k + 1) * share).forEach(({ i }) => (coreNuma[i] = id));
      }
    }
  } else {
    const entries = numaNode.items();
    if (entries.length === 0) numaNode.fail('a machine needs at least one NUMA node');
    const allCores = cores.map((c) => c.id);
    entries.forEach((node, id) => {
      const m = node.map(NUMA_NODE_KEYS);
      const attach = m.req('attach').text();
      numaNodes.push({
        id,
        attach,
        memoryBytes: readSize(m.req('memory')),
        bandwidth: readBandwidth(m.req('bandwidth')),
        latencyNs: readTime(m.req('latency')),
        ...peer(m),
        kind: m.get('kind')?.oneOf(MEMORY_KINDS) ?? 'dram',
        ...writes(m),
      });
      record(id, node, m);
      const which = m.exclusive(['packages', 'cores'], entries.length > 1);
      let local: number[];
      const localNode = which ? m.get(which)! : node;
      if (which === 'packages') {
        local = [];
        for (const p of localNode.items()) {
          const pkg = p.integer(0);
          if (pkg >= packages.length) p.fail(`package ${pkg} does not exist (the machine has ${packages.length})`);
          cores.forEach((c) => c.package === pkg && local.push(c.id));
        }
      } else {
        local = which === 'cores' ? readCoreSet(localNode, allCores) : allCores;
      }
      for (const coreId of local) {
        if (coreId >= cores.length) localNode.fail(`core ${coreId} does not exist (the machine has ${cores.length})`);
        if (coreNuma[coreId] !== undefined)
          localNode.fail(`core ${coreId} is already local to NUMA node ${coreNuma[coreId]}`);
        coreNuma[coreId] = id;
      }
    });
  }
  const orphan = coreNuma.findIndex((n) => n === undefined);
  if (orphan >= 0) numaNode.fail(`core ${orphan} is local to no NUMA node`);
  return { numaNodes, coreNuma: coreNuma as number[] };
}
