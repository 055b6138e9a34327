// Invariants every MachineSpec must hold before a simulation may read it, whatever its source
// (machine file, hwloc import, sysfs). The first broken one is reported as an InputError whose
// field is the spec path; `locate` lets a loader turn that path into a file position.

import { didYouMean, InputError, type InputLocation } from '../common/input-error.ts';
import { packageVertex, type MachineSpec, type VertexId } from './spec.ts';

export type Locator = (specField: string) => InputLocation;

export const MECHANISMS = ['cma', 'knem', 'xpmem', 'limic', 'ioat'] as const;

export function validateMachine(spec: MachineSpec, locate?: Locator): void {
  const fail: (field: string, detail: string) => never = (field, detail) => {
    throw new InputError(detail, locate ? locate(field) : { file: spec.origin || undefined, field });
  };
  const positive = (field: string, v: number, what: string) => {
    if (!(Number.isFinite(v) && v > 0)) fail(field, `${what} must be a positive number, got ${v}`);
  };
  const nonNegative = (field: string, v: number, what: string) => {
    if (!(Number.isFinite(v) && v >= 0)) fail(field, `${what} must not be negative, got ${v}`);
  };

  if (!spec.name) fail('name', 'the machine needs a name');
  if (spec.packages.length === 0) fail('packages', 'a machine needs at least one package');

  // Vertices: every package, then every hub.
  const vertices = new Set<VertexId>();
  spec.packages.forEach((p, i) => {
    if (p.id !== i) fail(`packages[${i}].id`, `package ids must be 0..${spec.packages.length - 1} in order, got ${p.id}`);
    vertices.add(packageVertex(p.id));
  });
  spec.hubs.forEach((h, i) => {
    if (!h.id) fail(`hubs[${i}].id`, 'a hub needs an id');
    if (h.id.startsWith('pkg')) fail(`hubs[${i}].id`, `hub id '${h.id}' must not start with 'pkg' (reserved for packages)`);
    if (vertices.has(h.id)) fail(`hubs[${i}].id`, `duplicate hub id '${h.id}'`);
    vertices.add(h.id);
  });
  const knownVertex = (field: string, v: VertexId, what: string) => {
    if (vertices.has(v)) return;
    const hint = didYouMean(v, [...vertices]);
    fail(field, `${what} '${v}', which is not a package or hub${hint ? ` (did you mean '${hint}'?)` : ''}; known: ${[...vertices].join(', ')}`);
  };

  const numaIds = new Set<number>();
  spec.numaNodes.forEach((n, i) => {
    const f = `numaNodes[${i}]`;
    if (numaIds.has(n.id)) fail(`${f}.id`, `duplicate NUMA node id ${n.id}`);
    numaIds.add(n.id);
    if (!n.attach) fail(`${f}.attach`, `NUMA node ${n.id} is attached to nothing`);
    knownVertex(`${f}.attach`, n.attach, `NUMA node ${n.id} attaches to`);
    positive(`${f}.memoryBytes`, n.memoryBytes, 'memory size');
    positive(`${f}.bandwidth`, n.bandwidth, 'memory bandwidth');
    nonNegative(`${f}.latencyNs`, n.latencyNs, 'memory latency');
    if (n.kind !== 'dram' && n.kind !== 'hbm') fail(`${f}.kind`, `memory kind must be dram or hbm, got '${n.kind}'`);
  });
  if (spec.numaNodes.length === 0) fail('numaNodes', 'a machine needs at least one NUMA node');

  const coreIds = new Set<number>();
  const coresPerPackage = new Map<number, number>();
  spec.cores.forEach((c, i) => {
    const f = `cores[${i}]`;
    if (!Number.isInteger(c.id) || c.id < 0) fail(`${f}.id`, `core id must be a non-negative integer, got ${c.id}`);
    if (coreIds.has(c.id)) fail(`${f}.id`, `duplicate core id ${c.id}`);
    coreIds.add(c.id);
    if (!spec.packages.some((p) => p.id === c.package)) fail(`${f}.package`, `core ${c.id} is in package ${c.package}, which does not exist`);
    if (!numaIds.has(c.numa)) fail(`${f}.numa`, `core ${c.id} is local to NUMA node ${c.numa}, which does not exist`);
    positive(`${f}.frequencyGHz`, c.frequencyGHz, 'core frequency');
    if (!Number.isInteger(c.threads) || c.threads < 1) fail(`${f}.threads`, `threads per core must be an integer >= 1, got ${c.threads}`);
    coresPerPackage.set(c.package, (coresPerPackage.get(c.package) ?? 0) + 1);
  });
  spec.packages.forEach((p, i) => {
    if (!coresPerPackage.get(p.id)) fail(`packages[${i}]`, `package ${p.id} has no cores`);
  });

  const cacheIds = new Set<string>();
  spec.caches.forEach((c, i) => {
    const f = `caches[${i}]`;
    if (cacheIds.has(c.id)) fail(`${f}.id`, `duplicate cache id '${c.id}'`);
    cacheIds.add(c.id);
    if (!Number.isInteger(c.level) || c.level < 1) fail(`${f}.level`, `cache level must be an integer >= 1, got ${c.level}`);
    positive(`${f}.sizeBytes`, c.sizeBytes, 'cache size');
    positive(`${f}.bandwidth`, c.bandwidth, 'cache bandwidth');
    nonNegative(`${f}.latencyNs`, c.latencyNs, 'cache latency');
    if (c.cores.length === 0) fail(`${f}.cores`, `cache ${c.id} is shared by no core`);
    const seen = new Set<number>();
    for (const core of c.cores) {
      if (!coreIds.has(core)) fail(`${f}.cores`, `cache ${c.id} is shared by core ${core}, which does not exist`);
      if (seen.has(core)) fail(`${f}.cores`, `cache ${c.id} lists core ${core} twice`);
      seen.add(core);
    }
    if (c.memorySide && c.cores.length !== coreIds.size) {
      fail(`${f}.cores`, `memory-side cache ${c.id} must list every core of the machine`);
    }
  });

  const adjacency = new Map<VertexId, Set<VertexId>>([...vertices].map((v) => [v, new Set<VertexId>()]));
  const linkNames = new Set<string>();
  spec.links.forEach((l, i) => {
    const f = `links[${i}]`;
    if (linkNames.has(l.name)) fail(`${f}.name`, `duplicate link name '${l.name}'`);
    linkNames.add(l.name);
    knownVertex(`${f}.a`, l.a, `link '${l.name}' ends at`);
    knownVertex(`${f}.b`, l.b, `link '${l.name}' ends at`);
    if (l.a === l.b) fail(`${f}.b`, `link '${l.name}' connects '${l.a}' to itself`);
    if (adjacency.get(l.a)!.has(l.b)) fail(f, `a second link between '${l.a}' and '${l.b}': merge them into one with the summed bandwidth`);
    positive(`${f}.bandwidth`, l.bandwidth, 'link bandwidth');
    nonNegative(`${f}.latencyNs`, l.latencyNs, 'link latency');
    adjacency.get(l.a)!.add(l.b);
    adjacency.get(l.b)!.add(l.a);
  });
  const reached = new Set<VertexId>([packageVertex(spec.packages[0].id)]);
  const frontier = [...reached];
  while (frontier.length) {
    for (const next of adjacency.get(frontier.pop()!)!) {
      if (!reached.has(next)) {
        reached.add(next);
        frontier.push(next);
      }
    }
  }
  const unreached = [...vertices].filter((v) => !reached.has(v));
  if (unreached.length) fail('links', `the interconnect is disconnected: ${unreached.join(', ')} cannot be reached from ${packageVertex(spec.packages[0].id)}`);

  if (spec.routing.kind === 'table') {
    for (const [key, path] of Object.entries(spec.routing.routes)) {
      const f = `routing.routes.${key}`;
      const m = /^(.+)->(.+)$/.exec(key);
      if (!m) fail(f, `route key '${key}' must be written 'from->to'`);
      knownVertex(f, m[1], 'the route starts at');
      knownVertex(f, m[2], 'the route ends at');
      if (path[0] !== m[1] || path[path.length - 1] !== m[2]) fail(f, `route ${key} must start at '${m[1]}' and end at '${m[2]}'`);
      for (let j = 0; j + 1 < path.length; j++) {
        knownVertex(f, path[j + 1], 'the route goes through');
        if (!adjacency.get(path[j])?.has(path[j + 1])) fail(f, `route ${key} hops from '${path[j]}' to '${path[j + 1]}' without a link between them`);
      }
      if (new Set(path).size !== path.length) fail(f, `route ${key} visits a vertex twice`);
    }
  }

  const busIds = new Set<string>();
  spec.ioBuses.forEach((b, i) => {
    const f = `ioBuses[${i}]`;
    if (busIds.has(b.id)) fail(`${f}.id`, `duplicate I/O bus id '${b.id}'`);
    busIds.add(b.id);
    knownVertex(`${f}.attach`, b.attach, `I/O bus '${b.id}' attaches to`);
    positive(`${f}.bandwidth`, b.bandwidth, 'I/O bus bandwidth');
  });
  const nicIds = new Set<string>();
  spec.nics.forEach((n, i) => {
    const f = `nics[${i}]`;
    if (nicIds.has(n.id)) fail(`${f}.id`, `duplicate NIC id '${n.id}'`);
    nicIds.add(n.id);
    if (!busIds.has(n.bus)) fail(`${f}.bus`, `NIC '${n.id}' sits on I/O bus '${n.bus}', which does not exist`);
    positive(`${f}.bandwidth`, n.bandwidth, 'NIC bandwidth');
    if (n.dmaBytes !== undefined) positive(`${f}.dmaBytes`, n.dmaBytes, 'NIC DMA size');
  });

  positive('costs.copyBandwidth', spec.costs.copyBandwidth, 'core copy bandwidth');
  positive('costs.reduceBandwidth', spec.costs.reduceBandwidth, 'core reduce bandwidth');
  if (spec.costs.missConcurrency !== undefined) positive('costs.missConcurrency', spec.costs.missConcurrency, 'misses in flight per core');
  if (spec.costs.lineBytes !== undefined) positive('costs.lineBytes', spec.costs.lineBytes, 'cache line size');

  const k = spec.kernel;
  if (!k.version) fail('kernel.version', 'the kernel version the machine assumes is required');
  for (const m of MECHANISMS) {
    if (typeof k.mechanisms[m] !== 'boolean') fail(`kernel.mechanisms.${m}`, `mechanism ${m} must be true or false`);
  }
  nonNegative('kernel.syscallNs', k.syscallNs, 'syscall cost');
  const pageBytes = k.pageBytes;
  if (!(Number.isInteger(pageBytes) && pageBytes > 0 && (pageBytes & (pageBytes - 1)) === 0)) {
    fail('kernel.pageBytes', `page size must be a power of two, got ${pageBytes}`);
  }
  nonNegative('kernel.pinPerPageNs', k.pinPerPageNs, 'page pin cost');
  if (k.cmaLockMode !== 'exclusive' && k.cmaLockMode !== 'shared') fail('kernel.cmaLockMode', `CMA lock mode must be exclusive or shared, got '${k.cmaLockMode}'`);
  for (const [name, v] of Object.entries(k.params)) {
    if (!Number.isFinite(v)) fail(`kernel.params.${name}`, `kernel parameter ${name} must be a finite number, got ${v}`);
  }

  if (spec.distances) {
    const n = spec.numaNodes.length;
    if (spec.distances.length !== n) fail('distances', `the distance matrix has ${spec.distances.length} rows for ${n} NUMA nodes`);
    spec.distances.forEach((row, i) => {
      if (row.length !== n) fail(`distances[${i}]`, `distance row ${i} has ${row.length} entries for ${n} NUMA nodes`);
      row.forEach((d, j) => positive(`distances[${i}][${j}]`, d, 'a NUMA distance'));
    });
  }
}
