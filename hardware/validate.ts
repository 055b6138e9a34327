// Invariants every MachineSpec must hold before a simulation may read it, whatever its source
// (machine file, hwloc import, sysfs). The first broken one is reported as an InputError whose
// field is the spec path; `locate` lets a loader turn that path into a file position.

import { didYouMean, InputError, type InputLocation } from '../common/input-error.ts';
import { describeNumber } from '../common/yaml/value.ts';
import { kernelParamProblem } from './kernel-params.ts';
import { lineBytesOf, packageVertex, type MachineSpec, type VertexId } from './spec.ts';

export type Locator = (specField: string) => InputLocation;

export const MECHANISMS = ['cma', 'knem', 'xpmem', 'limic', 'ioat'] as const;

export function validateMachine(spec: MachineSpec, locate?: Locator): void {
  const check = new Checker(spec, locate);
  if (!spec.name) check.fail('name', 'the machine needs a name');
  if (spec.packages.length === 0) check.fail('packages', 'a machine needs at least one package');
  check.packagesAndHubs();
  check.numaNodes();
  check.cores();
  check.lineSize();
  check.caches();
  check.links();
  check.routing();
  check.io();
  check.costs();
  check.kernel();
  check.distances();
}

/** The invariants by part of the machine, in the order a reader meets them; the first broken one throws. */
class Checker {
  /** Interconnect vertices: every package, then every hub. */
  private readonly vertices = new Set<VertexId>();
  private readonly numaIds = new Set<number>();
  private readonly coreIds = new Set<number>();
  private readonly adjacency = new Map<VertexId, Set<VertexId>>();

  constructor(
    private readonly spec: MachineSpec,
    private readonly locate: Locator | undefined,
  ) {}

  fail(field: string, detail: string): never {
    throw new InputError(detail, this.locate ? this.locate(field) : { file: this.spec.origin || undefined, field });
  }

  private positive(field: string, v: number, what: string): void {
    if (!(Number.isFinite(v) && v > 0)) this.fail(field, `${what} must be a positive number, got ${describeNumber(v)}`);
  }

  private nonNegative(field: string, v: number, what: string): void {
    if (!(Number.isFinite(v) && v >= 0)) this.fail(field, `${what} must not be negative, got ${describeNumber(v)}`);
  }

  private knownVertex(field: string, v: VertexId, what: string): void {
    if (this.vertices.has(v)) return;
    const hint = didYouMean(v, [...this.vertices]);
    this.fail(
      field,
      `${what} '${v}', which is not a package or hub${hint ? ` (did you mean '${hint}'?)` : ''}; known: ${[...this.vertices].join(', ')}`,
    );
  }

  packagesAndHubs(): void {
    this.spec.packages.forEach((p, i) => {
      if (p.id !== i)
        this.fail(`packages[${i}].id`, `package ids must be 0..${this.spec.packages.length - 1} in order, got ${p.id}`);
      this.vertices.add(packageVertex(p.id));
    });
    this.spec.hubs.forEach((h, i) => {
      if (!h.id) this.fail(`hubs[${i}].id`, 'a hub needs an id');
      if (h.id.startsWith('pkg'))
        this.fail(`hubs[${i}].id`, `hub id '${h.id}' must not start with 'pkg' (reserved for packages)`);
      if (this.vertices.has(h.id)) this.fail(`hubs[${i}].id`, `duplicate hub id '${h.id}'`);
      this.vertices.add(h.id);
    });
  }

  numaNodes(): void {
    this.spec.numaNodes.forEach((n, i) => {
      const f = `numaNodes[${i}]`;
      if (this.numaIds.has(n.id)) this.fail(`${f}.id`, `duplicate NUMA node id ${n.id}`);
      this.numaIds.add(n.id);
      if (!n.attach) this.fail(`${f}.attach`, `NUMA node ${n.id} is attached to nothing`);
      this.knownVertex(`${f}.attach`, n.attach, `NUMA node ${n.id} attaches to`);
      this.positive(`${f}.memoryBytes`, n.memoryBytes, 'memory size');
      this.positive(`${f}.bandwidth`, n.bandwidth, 'memory bandwidth');
      this.nonNegative(`${f}.latencyNs`, n.latencyNs, 'memory latency');
      if (n.peerLatencyNs !== undefined)
        this.nonNegative(
          `${f}.peerLatencyNs`,
          n.peerLatencyNs,
          'cache-to-cache latency between cores sharing no cache',
        );
      if (n.writeCost !== undefined && !(n.writeCost >= 1))
        this.fail(`${f}.writeCost`, `a written byte costs at least one read byte of bandwidth, got ${n.writeCost}`);
      if (n.writeBandwidth !== undefined) {
        this.positive(`${f}.writeBandwidth`, n.writeBandwidth, 'memory write bandwidth');
        if (n.writeCost !== undefined)
          this.fail(
            `${f}.writeBandwidth`,
            `writes with lanes of their own turn no bus around, and this node gives a writeCost (${n.writeCost}) for its one bus: give write lanes to a node without writeCost`,
          );
      }
      if (n.kind !== 'dram' && n.kind !== 'hbm')
        this.fail(`${f}.kind`, `memory kind must be dram or hbm, got '${String(n.kind)}'`);
    });
    if (this.spec.numaNodes.length === 0) this.fail('numaNodes', 'a machine needs at least one NUMA node');
  }

  cores(): void {
    const coresPerPackage = new Map<number, number>();
    this.spec.cores.forEach((c, i) => {
      const f = `cores[${i}]`;
      if (!Number.isInteger(c.id) || c.id < 0)
        this.fail(`${f}.id`, `core id must be a non-negative integer, got ${c.id}`);
      if (this.coreIds.has(c.id)) this.fail(`${f}.id`, `duplicate core id ${c.id}`);
      this.coreIds.add(c.id);
      if (!this.spec.packages.some((p) => p.id === c.package))
        this.fail(`${f}.package`, `core ${c.id} is in package ${c.package}, which does not exist`);
      if (!this.numaIds.has(c.numa))
        this.fail(`${f}.numa`, `core ${c.id} is local to NUMA node ${c.numa}, which does not exist`);
      this.positive(`${f}.frequencyGHz`, c.frequencyGHz, 'core frequency');
      if (!Number.isInteger(c.threads) || c.threads < 1)
        this.fail(`${f}.threads`, `threads per core must be an integer >= 1, got ${c.threads}`);
      coresPerPackage.set(c.package, (coresPerPackage.get(c.package) ?? 0) + 1);
    });
    this.spec.packages.forEach((p, i) => {
      if (!coresPerPackage.get(p.id)) this.fail(`packages[${i}]`, `package ${p.id} has no cores`);
    });
  }

  /** Lines are what caches hold and pages are made of: a power of two no larger than a page. */
  lineSize(): void {
    const line = this.spec.costs.lineBytes;
    if (line === undefined) return;
    if (!(Number.isInteger(line) && line >= 8 && (line & (line - 1)) === 0))
      this.fail(
        'costs.lineBytes',
        `cache line size must be a power of two of at least 8 bytes, got ${describeNumber(line)}`,
      );
    if (Number.isInteger(this.spec.kernel.pageBytes) && line > this.spec.kernel.pageBytes)
      this.fail('costs.lineBytes', `a cache line of ${line} B is larger than a page (${this.spec.kernel.pageBytes} B)`);
  }

  caches(): void {
    const line = lineBytesOf(this.spec);
    // Per core, the cache it has at each level: a core looks up one cache per level.
    const byCoreLevel = new Map<string, string>();
    const cacheIds = new Set<string>();
    const firstMemorySide = this.spec.caches.findIndex((c) => c.memorySide);
    this.spec.caches.forEach((c, i) => {
      const f = `caches[${i}]`;
      if (cacheIds.has(c.id)) this.fail(`${f}.id`, `duplicate cache id '${c.id}'`);
      cacheIds.add(c.id);
      if (!Number.isInteger(c.level) || c.level < 1)
        this.fail(`${f}.level`, `cache level must be an integer >= 1, got ${c.level}`);
      this.positive(`${f}.sizeBytes`, c.sizeBytes, 'cache size');
      if (c.sizeBytes % line !== 0)
        this.fail(
          `${f}.sizeBytes`,
          `cache ${c.id} holds ${c.sizeBytes} B, not a whole number of ${line} B cache lines (costs.lineSize)`,
        );
      this.positive(`${f}.bandwidth`, c.bandwidth, 'cache bandwidth');
      this.nonNegative(`${f}.latencyNs`, c.latencyNs, 'cache latency');
      if (c.peerLatencyNs !== undefined) {
        this.nonNegative(`${f}.peerLatencyNs`, c.peerLatencyNs, 'cache-to-cache latency');
        if (c.cores.length < 2)
          this.fail(`${f}.peerLatencyNs`, `cache ${c.id} is private to one core: no other core takes lines from it`);
      }
      if (c.cores.length === 0) this.fail(`${f}.cores`, `cache ${c.id} is shared by no core`);
      const seen = new Set<number>();
      for (const core of c.cores) {
        if (!this.coreIds.has(core))
          this.fail(`${f}.cores`, `cache ${c.id} is shared by core ${core}, which does not exist`);
        if (seen.has(core)) this.fail(`${f}.cores`, `cache ${c.id} lists core ${core} twice`);
        seen.add(core);
        if (c.memorySide) continue;
        const other = byCoreLevel.get(`${core}/${c.level}`);
        if (other !== undefined)
          this.fail(
            `${f}.level`,
            `core ${core} has two level-${c.level} caches, ${other} and ${c.id}: a core has one cache per level (data caches only; merge them or give one another level)`,
          );
        byCoreLevel.set(`${core}/${c.level}`, c.id);
      }
      if (c.memorySide && c.cores.length !== this.coreIds.size) {
        this.fail(`${f}.cores`, `memory-side cache ${c.id} must list every core of the machine`);
      }
      // The model looks up one memory-side cache in front of all of memory; a second would be ignored.
      if (c.memorySide && firstMemorySide !== i)
        this.fail(
          f,
          `a machine has at most one memory-side cache, and ${this.spec.caches[firstMemorySide].id} is one: give one of their summed size`,
        );
    });
  }

  /** Links between known vertices, at most one per pair, and every vertex reachable. */
  links(): void {
    for (const v of this.vertices) this.adjacency.set(v, new Set<VertexId>());
    const linkNames = new Set<string>();
    this.spec.links.forEach((l, i) => {
      const f = `links[${i}]`;
      if (linkNames.has(l.name)) this.fail(`${f}.name`, `duplicate link name '${l.name}'`);
      linkNames.add(l.name);
      this.knownVertex(`${f}.a`, l.a, `link '${l.name}' ends at`);
      this.knownVertex(`${f}.b`, l.b, `link '${l.name}' ends at`);
      if (l.a === l.b) this.fail(`${f}.b`, `link '${l.name}' connects '${l.a}' to itself`);
      if (this.adjacency.get(l.a)!.has(l.b))
        this.fail(f, `a second link between '${l.a}' and '${l.b}': merge them into one with the summed bandwidth`);
      this.positive(`${f}.bandwidth`, l.bandwidth, 'link bandwidth');
      this.nonNegative(`${f}.latencyNs`, l.latencyNs, 'link latency');
      this.adjacency.get(l.a)!.add(l.b);
      this.adjacency.get(l.b)!.add(l.a);
    });
    const reached = new Set<VertexId>([packageVertex(this.spec.packages[0].id)]);
    const frontier = [...reached];
    while (frontier.length) {
      for (const next of this.adjacency.get(frontier.pop()!)!) {
        if (!reached.has(next)) {
          reached.add(next);
          frontier.push(next);
        }
      }
    }
    const unreached = [...this.vertices].filter((v) => !reached.has(v));
    if (unreached.length)
      this.fail(
        'links',
        `the interconnect is disconnected: ${unreached.join(', ')} cannot be reached from ${packageVertex(this.spec.packages[0].id)}`,
      );
  }

  routing(): void {
    if (this.spec.routing.kind === 'table') {
      for (const [key, path] of Object.entries(this.spec.routing.routes)) {
        const f = `routing.routes.${key}`;
        const m = /^(.+)->(.+)$/.exec(key);
        if (!m) this.fail(f, `route key '${key}' must be written 'from->to'`);
        this.knownVertex(f, m[1], 'the route starts at');
        this.knownVertex(f, m[2], 'the route ends at');
        if (path[0] !== m[1] || path[path.length - 1] !== m[2])
          this.fail(f, `route ${key} must start at '${m[1]}' and end at '${m[2]}'`);
        for (let j = 0; j + 1 < path.length; j++) {
          this.knownVertex(f, path[j + 1], 'the route goes through');
          if (!this.adjacency.get(path[j])?.has(path[j + 1]))
            this.fail(f, `route ${key} hops from '${path[j]}' to '${path[j + 1]}' without a link between them`);
        }
        if (new Set(path).size !== path.length) this.fail(f, `route ${key} visits a vertex twice`);
      }
    }
  }

  io(): void {
    const busIds = new Set<string>();
    this.spec.ioBuses.forEach((b, i) => {
      const f = `ioBuses[${i}]`;
      if (busIds.has(b.id)) this.fail(`${f}.id`, `duplicate I/O bus id '${b.id}'`);
      busIds.add(b.id);
      this.knownVertex(`${f}.attach`, b.attach, `I/O bus '${b.id}' attaches to`);
      this.positive(`${f}.bandwidth`, b.bandwidth, 'I/O bus bandwidth');
    });
    const nicIds = new Set<string>();
    this.spec.nics.forEach((n, i) => {
      const f = `nics[${i}]`;
      if (nicIds.has(n.id)) this.fail(`${f}.id`, `duplicate NIC id '${n.id}'`);
      nicIds.add(n.id);
      if (!busIds.has(n.bus)) this.fail(`${f}.bus`, `NIC '${n.id}' sits on I/O bus '${n.bus}', which does not exist`);
      this.positive(`${f}.bandwidth`, n.bandwidth, 'NIC bandwidth');
      if (n.dmaBytes !== undefined) this.positive(`${f}.dmaBytes`, n.dmaBytes, 'NIC DMA size');
      if (n.latencyNs !== undefined) this.nonNegative(`${f}.latencyNs`, n.latencyNs, 'NIC latency');
    });
  }

  costs(): void {
    this.positive('costs.copyBandwidth', this.spec.costs.copyBandwidth, 'core copy bandwidth');
    this.positive('costs.reduceBandwidth', this.spec.costs.reduceBandwidth, 'core reduce bandwidth');
    if (this.spec.costs.missConcurrency !== undefined)
      this.positive('costs.missConcurrency', this.spec.costs.missConcurrency, 'misses in flight per core');
    if (this.spec.costs.claimConcurrency !== undefined)
      this.positive('costs.claimConcurrency', this.spec.costs.claimConcurrency, 'ownership claims in flight per core');
    if (this.spec.costs.streamConcurrency !== undefined)
      this.positive('costs.streamConcurrency', this.spec.costs.streamConcurrency, 'stream misses in flight per core');
    if (this.spec.costs.memcpyNonTemporalShare !== undefined)
      this.positive(
        'costs.memcpyNonTemporalShare',
        this.spec.costs.memcpyNonTemporalShare,
        'non-temporal threshold share',
      );
  }

  kernel(): void {
    const k = this.spec.kernel;
    if (!k.version) this.fail('kernel.version', 'the kernel version the machine assumes is required');
    for (const m of MECHANISMS) {
      if (typeof k.mechanisms[m] !== 'boolean')
        this.fail(`kernel.mechanisms.${m}`, `mechanism ${m} must be true or false`);
    }
    this.nonNegative('kernel.syscallNs', k.syscallNs, 'syscall cost');
    const pageBytes = k.pageBytes;
    if (!(Number.isInteger(pageBytes) && pageBytes > 0 && (pageBytes & (pageBytes - 1)) === 0)) {
      this.fail('kernel.pageBytes', `page size must be a power of two, got ${pageBytes}`);
    }
    this.nonNegative('kernel.pinPerPageNs', k.pinPerPageNs, 'page pin cost');
    if (k.cmaLockMode !== 'exclusive' && k.cmaLockMode !== 'shared')
      this.fail('kernel.cmaLockMode', `CMA lock mode must be exclusive or shared, got '${String(k.cmaLockMode)}'`);
    // Checked here, at the value's line, and not first where a run reads it, after other points ran.
    for (const [name, v] of Object.entries(k.params)) {
      const problem = kernelParamProblem(name, v);
      if (problem !== undefined) this.fail(`kernel.params.${name}`, `kernel parameter ${problem}`);
    }
  }

  distances(): void {
    if (this.spec.distances) {
      const n = this.spec.numaNodes.length;
      if (this.spec.distances.length !== n)
        this.fail('distances', `the distance matrix has ${this.spec.distances.length} rows for ${n} NUMA nodes`);
      this.spec.distances.forEach((row, i) => {
        if (row.length !== n)
          this.fail(`distances[${i}]`, `distance row ${i} has ${row.length} entries for ${n} NUMA nodes`);
        row.forEach((d, j) => this.positive(`distances[${i}][${j}]`, d, 'a NUMA distance'));
      });
    }
  }
}
