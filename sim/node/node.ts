// The node at run time: turns "core c copies n bytes from range A to range B" into one fluid flow
// over every resource the bytes touch, and keeps what caches and buffers hold.
//
// A copy is a single flow whose per-resource weights are the share of its bytes that cross that
// resource: the core's copy engine (every byte), the cache or memory controller the source is read
// from (split by how much of it is resident where), the links on each route, and the cache or
// memory the destination is written to. The max-min solver then finds the bottleneck; contention
// between copies emerges from shared resources rather than from typed-in penalties.
import type { Simulation } from '../engine/simulation.ts';
import type { Program } from '../engine/program.ts';
import { wait } from '../engine/program.ts';
import { Mutex } from '../engine/mutex.ts';
import { FlowNetwork, type Flow, type Resource } from '../flow/network.ts';
import { lineBytesOf, type CacheSpec, type MachineSpec, type VertexId } from '../../hardware/spec.ts';
import { hasVictimCache, outermostCaches, peerLatency, Topology } from './topology.ts';
import { CacheState, type EvictionSink, type SavedCache } from './cache.ts';
import { CacheHolders } from './cache-holders.ts';
import { bestSibling, keptDirtyIds, siblingCachesByCore } from './sibling-caches.ts';
import { bestOwners, OwnerCandidates, type OwnerCandidate } from './dirty-owners.ts';
import { Buffer, type Range } from './buffer.ts';
import type { Content, Piece } from './content.ts';
import { Trace } from './trace.ts';
import { MissQueues, add, type Uses } from './miss-queues.ts';
import { nonTemporalThreshold, storeKind, type CopyRoutine, type StoreKind } from './store-kind.ts';
import { SharedStreams } from './shared-streams.ts';
import { PageTable } from './page-table.ts';
import { faultIn } from './first-touch.ts';
import { PairTable } from './pair-table.ts';
import { lineExtent } from './cache-lines.ts';
import type { PassAccess } from './rank-api.ts';
import { stateRules } from '../../common/state-fingerprint.ts';

export { add, type Uses };

export interface NodeOptions {
  /** Keep every trace event (for callers that read the steps themselves), not only per-kind totals. */
  keepTrace?: boolean;
}

export interface CopyInfo {
  rank: number;
  label: string;
  /** Trace kind; 'copy' for user-space memcpy, 'kernel-copy' for CMA/KNEM/LiMIC. */
  kind?: string;
  /** Relative speed of this copy loop against the core's plain memcpy (kernel copy paths differ). */
  efficiency?: number;
  /** Which code copies, which decides how it stores (sim/node/store-kind.ts); default memcpy. */
  routine?: CopyRoutine;
}

/** A copy decided at its start and not yet run (Node.prepareCopy). */
export interface PreparedCopy {
  readonly core: number;
  readonly src: Range;
  readonly dst: Range;
  readonly info: CopyInfo;
  /** What the source held when the copy started: what lands in the destination. */
  readonly snapshot: readonly Piece[];
  readonly uses: Uses;
  readonly latency: number;
  readonly start: number;
  /** What victim caches receive from it, at its end. */
  readonly fills: VictimFills;
}

/** Cache fills a copy makes when it ends (a victim cache's share of what it evicts below). */
export type VictimFills = Array<() => void>;

/** One place the bytes of a range are, as seen from a core. */
interface Part {
  bytes: number;
  latency: number;
  resources: readonly Resource[];
  /** Served beyond the level the core's prefetcher fills (an L3, another socket, memory). */
  far: boolean;
  /** Latency of claiming these lines without their data (a full-line store): the home's answer
   *  without the DRAM access for memory-served parts, the same as reading them otherwise. */
  claimLatency: number;
}

export class Node {
  readonly sim: Simulation;
  readonly spec: MachineSpec;
  readonly topo: Topology;
  readonly net: FlowNetwork;
  readonly trace: Trace;
  /** Pages of freshly allocated buffers not yet faulted in (first-touch.ts). */
  readonly pages: PageTable;
  private readonly coreEngine = new Map<number, Resource>();
  private readonly queues: MissQueues;
  /** Cache line size: the unit the caches take and give up (cache-lines.ts). */
  private readonly lineBytes: number;
  private readonly cacheBandwidth = new Map<string, Resource>();
  /** Each cache's bandwidth as the one resource of a part served there (locate), made once: parts
   *  are made for every copy, and nothing changes their lists. */
  private readonly cacheBandwidthOnly = new Map<string, readonly Resource[]>();
  private readonly memory = new Map<number, Resource>();
  /** The write lanes of NUMA nodes whose writes have lanes of their own (NumaNodeSpec.writeBandwidth). */
  private readonly memoryWrites = new Map<number, Resource>();
  private readonly linkDirection = new Map<string, Resource>();
  private readonly routeResourceCache = new PairTable<VertexId, readonly Resource[]>();
  private readonly cacheState = new Map<string, CacheState>();
  private readonly lastLevel: CacheSpec[];
  /** The last-level caches by the vertex of their socket, in `lastLevel`'s order. */
  private readonly lastLevelAt = new Map<string, CacheSpec[]>();
  /** Each last-level cache's state and its place in `lastLevel` (ties go to the earlier one). */
  private readonly lastLevelRank = new Map<CacheState, number>();
  private readonly holders = new CacheHolders();
  /** Per core, the ids of the caches a write by it leaves valid: its own and the memory-side ones
   *  (a CacheState is named by its cache's id). */
  private readonly keptOnWrite = new Map<number, Set<string>>();
  /** Per core, its own caches, to skip them among every socket's last level. */
  private readonly ownCaches = new Map<number, Set<CacheSpec>>();
  private readonly memorySideStates: CacheState[];
  private readonly memorySideIds: Set<string>;
  private nextBufferId = 0;
  /** Bytes of every buffer `allocate` has made (the caches' filler of earlier writes is not one). */
  private allocated = 0;
  private readonly userBuffers = new Set<number>();
  private readonly clearListeners: (() => void)[] = [];
  /** Per rank, the lock its copies and steps take in turn (onRankThread). */
  private readonly rankThreads = new Map<number, Mutex>();
  /** Per core, its caches that other cores share and fill (not victim or memory-side ones). */
  private readonly sharedOwn = new Map<number, Set<CacheSpec>>();
  private readonly sharedOwnIds = new Map<number, string[]>();
  private readonly streams = new SharedStreams();
  /** Per core, the memcpy size from which it stores non-temporally. */
  private readonly nonTemporalAbove = new Map<number, number>();
  /** Per NUMA node, the latency of its socket's last-level lookup (0 behind a hub without caches). */
  private readonly homeLookup = new Map<number, number>();
  /** Per core behind a victim cache, its socket's other private caches (sibling-caches.ts). */
  private readonly siblings: ReturnType<typeof siblingCachesByCore>;
  /** The private caches behind a victim cache: they keep written lines dirty for a sibling's probe. */
  private readonly dirtyPrivate: Set<string>;
  /** Per core, the caches outside its group that answer its reads of lines they hold Modified
   *  (dirty-owners.ts), by their state, with their place in the machine's order for ties. */
  /** Every eligible owner by its cache state (dirty-owners.ts), built when first needed. */
  private owners: Map<CacheState, OwnerCandidate> | undefined;
  private readonly ownerCandidates: OwnerCandidates;
  /** Each private cache that keeps written lines dirty, with the victim cache behind it. */
  private readonly victimFronts: { front: CacheState; victim: CacheState }[] = [];
  /** Whether some cache is a victim cache, whose fills land at copies' ends. */
  readonly hasVictimCaches: boolean;
  /** Per core and shared cache of its, the private caches of the other cores behind that cache
   *  (only where the machine sets costs.claimConcurrency or a cache-to-cache latency). */
  private readonly peersBehind = new Map<number, Map<CacheSpec, CacheState[]>>();
  /** Per core, each private cache of another core under a cache it shares, with the innermost such
   *  cache (only where the machine sets costs.claimConcurrency): `peersBehind` by private cache. */
  private readonly socketPeers = new Map<number, Map<CacheState, CacheSpec>>();
  /** Every buffer by id, to find the home of what a cache writes back. */
  private readonly buffers = new Map<number, Buffer>();

  constructor(sim: Simulation, spec: MachineSpec, opts: NodeOptions = {}) {
    this.sim = sim;
    this.spec = spec;
    this.topo = new Topology(spec);
    this.net = new FlowNetwork(sim);
    this.trace = new Trace(opts.keepTrace ?? false);
    this.pages = new PageTable(spec.kernel.pageBytes);
    for (const core of spec.cores) {
      this.coreEngine.set(core.id, this.net.addResource(`core${core.id}`, spec.costs.copyBandwidth));
    }
    this.queues = new MissQueues(spec, this.topo, this.net);
    this.lineBytes = lineBytesOf(spec);
    this.siblings = siblingCachesByCore(spec);
    this.dirtyPrivate = keptDirtyIds(this.siblings);
    this.hasVictimCaches = hasVictimCache(spec.caches);
    for (const cache of spec.caches) {
      const bandwidth = this.net.addResource(`cache ${cache.id}`, cache.bandwidth);
      this.cacheBandwidth.set(cache.id, bandwidth);
      this.cacheBandwidthOnly.set(cache.id, [bandwidth]);
      const counted = !this.dirtyPrivate.has(cache.id);
      this.cacheState.set(
        cache.id,
        new CacheState(cache.id, cache.sizeBytes, this.holders, counted, (buf) => this.buffers.get(buf)?.home),
      );
    }
    for (const victim of spec.caches.filter((c) => c.victim))
      for (const front of spec.caches)
        if (this.dirtyPrivate.has(front.id) && front.cores.every((core) => victim.cores.includes(core)))
          this.victimFronts.push({ front: this.cacheState.get(front.id)!, victim: this.cacheState.get(victim.id)! });
    for (const numa of spec.numaNodes) {
      this.memory.set(numa.id, this.net.addResource(`mem${numa.id}`, numa.bandwidth));
      if (numa.writeBandwidth !== undefined)
        this.memoryWrites.set(numa.id, this.net.addResource(`mem${numa.id} writes`, numa.writeBandwidth));
    }
    for (const link of spec.links) {
      this.linkDirection.set(
        `${link.name}:${link.a}->${link.b}`,
        this.net.addResource(`${link.name} ${link.a}->${link.b}`, link.bandwidth),
      );
      this.linkDirection.set(
        `${link.name}:${link.b}->${link.a}`,
        this.net.addResource(`${link.name} ${link.b}->${link.a}`, link.bandwidth),
      );
    }
    const memorySide = this.topo.memorySideCaches();
    this.memorySideStates = memorySide.map((c) => this.cacheState.get(c.id)!);
    this.memorySideIds = new Set(memorySide.map((c) => c.id));
    for (const core of spec.cores) {
      const own = this.topo.cachesOf(core.id);
      this.ownCaches.set(core.id, new Set(own));
      const shared = own.filter((c) => c.cores.length > 1 && !c.victim && !c.memorySide);
      this.sharedOwn.set(core.id, new Set(shared));
      this.sharedOwnIds.set(
        core.id,
        shared.map((c) => c.id),
      );
      this.nonTemporalAbove.set(core.id, nonTemporalThreshold(spec, this.topo, core.id));
      this.keptOnWrite.set(core.id, new Set([...own, ...memorySide].map((c) => c.id)));
    }
    const claims = spec.costs.claimConcurrency !== undefined;
    if (claims || spec.caches.some((c) => c.peerLatencyNs !== undefined))
      for (const core of spec.cores) {
        const behind = new Map<CacheSpec, CacheState[]>();
        for (const outer of this.topo.cachesOf(core.id))
          if (!outer.memorySide && outer.cores.length > 1)
            behind.set(
              outer,
              spec.caches
                .filter((c) => !c.memorySide && c.cores.length === 1 && c.cores[0] !== core.id)
                .filter((c) => outer.cores.includes(c.cores[0]))
                .map((c) => this.cacheState.get(c.id)!),
            );
        this.peersBehind.set(core.id, behind);
        if (!claims) continue;
        const peers = new Map<CacheState, CacheSpec>();
        for (const [outer, states] of behind)
          for (const state of states) if (!peers.has(state)) peers.set(state, outer);
        this.socketPeers.set(core.id, peers);
      }
    this.lastLevel = outermostCaches(spec.caches);
    this.lastLevel.forEach((c, i) => {
      const vertex = this.topo.coreVertex(c.cores[0]);
      const list = this.lastLevelAt.get(vertex);
      if (list) list.push(c);
      else this.lastLevelAt.set(vertex, [c]);
      this.lastLevelRank.set(this.cacheState.get(c.id)!, i);
    });
    this.ownerCandidates = new OwnerCandidates(spec, this.lastLevel, this.dirtyPrivate);
    for (const numa of spec.numaNodes) {
      const home = this.lastLevelAt.get(numa.attach) ?? [];
      this.homeLookup.set(numa.id, Math.max(0, ...home.map((c) => c.latencyNs)));
    }
  }

  allocate(name: string, bytes: number, owner: number, home?: number): Buffer {
    const buf = new Buffer(this.nextBufferId++, name, bytes, owner, home);
    this.allocated += bytes;
    if (owner >= 0) this.userBuffers.add(buf.id);
    this.buffers.set(buf.id, buf);
    this.pages.allocated(buf);
    return buf;
  }

  /** Bytes allocated so far: the ranks' buffers and the shared segments the transports set up. The
   *  model never frees a buffer, so this is what the run has asked of memory by now. */
  get allocatedBytes(): number {
    return this.allocated;
  }

  /** A copy of what every buffer holds now, for `restoreContents`. */
  saveContents(): Map<Buffer, Content> {
    const saved = new Map<Buffer, Content>();
    for (const buf of this.buffers.values()) saved.set(buf, buf.content.clone());
    return saved;
  }

  /** Puts back what `saveContents` copied: every buffer it saw holds what it held then. */
  restoreContents(saved: ReadonlyMap<Buffer, Content>): void {
    for (const [buf, content] of saved) buf.content = content.clone();
  }

  coreResource(core: number): Resource {
    return this.coreEngine.get(core)!;
  }

  /** The resource a byte read from NUMA node `numa`'s memory loads, by one. */
  memoryResource(numa: number): Resource {
    return this.memory.get(numa)!;
  }

  /** The write lanes of NUMA node `numa`'s memory where it has lanes of its own for writes. */
  memoryWriteLanes(numa: number): Resource | undefined {
    return this.memoryWrites.get(numa);
  }

  /**
   * Adds a byte written into NUMA node `numa`'s memory, `share` of a flow's bytes: on write lanes
   * of its own where the memory has them (FB-DIMM), else on the controller at the cost of a written
   * byte there (its `writeCost`, bus turnarounds).
   */
  addMemoryWriteUse(uses: Uses, numa: number, share: number): void {
    const lanes = this.memoryWrites.get(numa);
    if (lanes !== undefined) add(uses, lanes, share);
    else add(uses, this.memory.get(numa)!, share * (this.topo.numa(numa).writeCost ?? 1));
  }

  /** Directed link resources along the route between two vertices (kept once worked out: every
   *  copy's planning asks for the routes of its parts). */
  routeResources(from: VertexId, to: VertexId): readonly Resource[] {
    const kept = this.routeResourceCache.get(from, to);
    if (kept !== undefined) return kept;
    const route = this.topo.route(from, to).map((h) => this.linkDirection.get(`${h.link.name}:${h.from}->${h.to}`)!);
    return this.routeResourceCache.set(from, to, route);
  }

  /**
   * IMB -off_cache between iterations: the benchmark moves on to buffers no cache holds, so its own
   * buffers are found in no cache; the lines it wrote stay dirty where they were until something
   * evicts them, and that eviction writes them back (CacheState.retire). The MPI library's shared
   * buffers (queue cells, copy rings, owned by no rank) stay as warm as the library's steady use
   * keeps them.
   */
  clearCaches(): void {
    // A line a private cache holds dirty is newer than the victim cache's copy of it (kept there
    // when it was read back or written again): that copy goes, so the line is written back once.
    for (const { front, victim } of this.victimFronts)
      for (const id of this.userBuffers)
        for (const [start, length] of front.dirtyRanges(id)) victim.invalidateRange(id, start, length);
    for (const state of this.cacheState.values()) for (const id of this.userBuffers) state.retire(id);
    for (const listener of this.clearListeners) listener();
  }

  /**
   * Fills every cache that keeps written lines dirty with lines written before the run, of buffers
   * no one uses any more: what a benchmark with cold caches leaves behind. Its calls move on to
   * buffers no cache holds (clearCaches), but what they wrote stays dirty until evicted, so nearly
   * every call of a benchmark of hundreds finds the caches full of such lines and pays for writing
   * back what it pushes out; IMB's -off_cache even fills them before its first timed call, writing
   * every rotating copy of its buffers (IMB_init_buffers_iter). Empty caches at the start would let
   * a short run's first calls evict nothing dirty, and its mean would depend on its number of
   * calls. The caches filled are those a write leaves dirty lines in (the outermost of a core,
   * a private cache behind a victim cache, the victim cache); the lines of each were written by the
   * cores under it and go back to their memory (split evenly where it serves several NUMA nodes).
   * Called before anything is cached, so the lines it adds are the oldest.
   */
  fillCachesWithEarlierWrites(): void {
    const outermost = new Set(this.spec.cores.map((core) => this.topo.cachesOf(core.id).at(-1)?.id));
    for (const cache of this.spec.caches) {
      if (!outermost.has(cache.id) && !this.dirtyPrivate.has(cache.id) && !cache.victim) continue;
      const state = this.cacheState.get(cache.id)!;
      if (state.usedBytes > 0) throw new Error(`cache ${cache.id} already holds lines: fill it before the run`);
      const homes = [...new Set(cache.cores.map((c) => this.topo.core(c).numa))].sort((a, b) => a - b);
      let left = cache.sizeBytes;
      homes.forEach((numa, i) => {
        const bytes = Math.floor(left / (homes.length - i));
        left -= bytes;
        if (bytes === 0) return;
        // Known only to find the home its lines go back to: no rank holds it, and it has no pages.
        const earlier = new Buffer(this.nextBufferId++, `earlier writes in ${cache.id}`, bytes, -1, numa);
        this.buffers.set(earlier.id, earlier);
        state.touchStale(earlier.id, 0, bytes);
      });
    }
  }

  /** Calls `listener` after every clearCaches: for what a layer above keeps of cached lines
   *  outside the buffers (the struct pages get_user_pages touches, sim/kernel/page-table-locks.ts). */
  onClearCaches(listener: () => void): void {
    this.clearListeners.push(listener);
  }

  cache(id: string): CacheState {
    return this.cacheState.get(id)!;
  }

  /** memcpy of src into dst by `core`; content moves as it was when the copy started. */
  *copy(core: number, src: Range, dst: Range, info: CopyInfo): Program<void> {
    if (src.bytes !== dst.bytes)
      throw new RangeError(`copy ${info.label}: source has ${src.bytes} bytes, destination ${dst.bytes}`);
    // onRankThread and runCopy, inline: copies are the commonest step, and each generator between
    // the rank's program and the flow is one more to make and to resume when the flow ends.
    const lock = this.threadToTake(info.rank);
    if (lock !== undefined && !lock.tryLock()) yield* lock.lock();
    try {
      // Once the rank may copy: its absent pages faulted in, then the flow.
      if (this.pages.pending) yield* faultIn(this, core, [src, dst], info.rank);
      const p = this.prepareCopy(core, src, dst, info);
      const flow = this.startCopy(p);
      yield flow;
      this.endCopy(p, flow);
    } finally {
      lock?.unlock();
    }
  }

  /** Whether the running process holds `rank`'s thread (it is inside one of the rank's calls). */
  holdsRankThread(rank: number): boolean {
    return this.rankThreads.get(rank)?.heldBy(this.sim.currentProcess) ?? false;
  }

  /**
   * Runs `work` on `rank`'s one thread. An MPI process is one thread: it copies one piece at a time
   * and does one step of its library's or the kernel's work at a time, whichever of its sends and
   * receives the piece or step belongs to, so every copy its program or its transports make (a
   * look-ahead transport's prepared chunks too) and every timed step of theirs runs through here,
   * queued in order of asking; `work` is started only once the thread is free, so whatever it
   * decides at its start sees the caches then. A system call holds the thread from entry to return
   * (sim/kernel/kernel-steps.ts, `kernelCall`), so work run from inside one, by the process that
   * holds the thread, runs at once. The thread is never asked for while holding anything else (a
   * kernel lock is taken inside a call, after the thread), so no two holders wait for each other.
   */
  *onRankThread<T>(rank: number, work: Program<T>): Program<T> {
    const lock = this.threadToTake(rank);
    if (lock === undefined) return yield* work;
    if (!lock.tryLock()) yield* lock.lock();
    try {
      return yield* work;
    } finally {
      lock.unlock();
    }
  }

  /** `rank`'s thread, for the running process to take; undefined where it holds it already. */
  private threadToTake(rank: number): Mutex | undefined {
    let lock = this.rankThreads.get(rank);
    if (lock === undefined) {
      lock = new Mutex(this.sim, `rank ${rank} thread`);
      this.rankThreads.set(rank, lock);
    }
    return lock.heldBy(this.sim.currentProcess) ? undefined : lock;
  }

  /**
   * The start of a copy, when everything about it is decided: its content snapshot, the resources
   * it will load and its latency, with the caches updated as the copy leaves them. `copy` is
   * `prepareCopy` then `runCopy`; a model that looks ahead (a train, sim/kernel/shm/lmt-train.ts)
   * prepares copies without running them. The caller has faulted in absent pages.
   */
  prepareCopy(core: number, src: Range, dst: Range, info: CopyInfo): PreparedCopy {
    const snapshot = src.buf.content.slice(src.offset, src.bytes);
    const uses: Uses = new Map();
    add(uses, this.coreResource(core), 1 / (info.efficiency ?? 1));
    const store = storeKind(this.spec, info.routine ?? 'memcpy', dst.bytes, this.nonTemporalAbove.get(core)!);
    const latency = this.planRead(core, src, uses, 1);
    const { kept } = this.planWrite(core, dst, uses, 1, { store });
    const fills: VictimFills = [];
    this.touch(core, src, false, fills);
    this.touch(core, dst, true, fills, store, kept);
    this.chargeWritebacks(core, uses, src.bytes);
    return { core, src, dst, info, snapshot, uses, latency, start: this.sim.now, fills };
  }

  /** Runs a prepared copy: its flow, then its content lands and its step is recorded. */
  *runCopy(p: PreparedCopy): Program<void> {
    const flow = this.startCopy(p);
    yield flow;
    this.endCopy(p, flow);
  }

  /** A prepared copy's flow, started; the process waits for it (no sub-program to resume). */
  private startCopy(p: PreparedCopy): Flow {
    const flow = this.startFlow(p.src.bytes, p.uses, p.latency, p.info.label);
    this.streams.add(this.sharedOwnIds.get(p.core)!, p.src, flow);
    return flow;
  }

  /** Once its flow is done, the copy's victim fills and content land and its step is recorded. */
  private endCopy(p: PreparedCopy, flow: Flow): void {
    this.fillVictims(p.fills);
    p.dst.buf.content.write(p.dst.offset, p.snapshot);
    this.recordStep(p.info, 'copy', p.start, p.src.bytes, flow);
  }

  /** Every cache's state, to put back with `restoreCaches` after a look ahead that is undone. */
  saveCaches(): Map<string, SavedCache> {
    const saved = new Map<string, SavedCache>();
    for (const [id, state] of this.cacheState) saved.set(id, state.save());
    return saved;
  }

  restoreCaches(saved: Map<string, SavedCache>): void {
    for (const [id, state] of this.cacheState) state.restore(saved.get(id)!);
  }

  /**
   * dst = dst op src, element-wise, by `core`. Both inputs are read and dst is written; the core's
   * reduction throughput (spec.costs.reduceBandwidth) bounds it instead of its copy bandwidth.
   */
  *reduce(core: number, op: string, src: Range, dst: Range, info: CopyInfo): Program<void> {
    if (src.bytes !== dst.bytes)
      throw new RangeError(`reduce ${info.label}: source has ${src.bytes} bytes, destination ${dst.bytes}`);
    // A reduction is the rank's own work, as a copy is: on its one thread.
    yield* this.onRankThread(info.rank, this.reduceNow(core, op, src, dst, info));
  }

  private *reduceNow(core: number, op: string, src: Range, dst: Range, info: CopyInfo): Program<void> {
    if (this.pages.pending) yield* faultIn(this, core, [src, dst], info.rank);
    const snapshot = src.buf.content.slice(src.offset, src.bytes);
    const start = this.sim.now;
    const uses: Uses = new Map();
    add(uses, this.coreResource(core), this.spec.costs.copyBandwidth / this.spec.costs.reduceBandwidth);
    const latency = Math.max(this.planRead(core, src, uses, 1), this.planRead(core, dst, uses, 1));
    // The store hits the line the load of dst just brought in: no second fetch, only the upgrade.
    const { kept } = this.planWrite(core, dst, uses, 1, { justRead: true });
    const fills: VictimFills = [];
    this.touch(core, src, false, fills);
    this.touch(core, dst, true, fills, 'rfo', kept);
    const flow = yield* this.streamAccess(core, src, src.bytes, uses, latency, fills, info.label);
    dst.buf.content.reduceInto(dst.offset, snapshot, op);
    this.recordStep(info, 'reduce', start, src.bytes, flow);
  }

  /**
   * The flow of a core's own access planned in `uses` and applied to the caches: what its evictions
   * write back is charged to it first, and the range it reads (if any) is registered for readers in
   * step (shared-streams.ts). Returns the flow once it is done and its victim fills have landed.
   */
  private *streamAccess(
    core: number,
    read: Range | undefined,
    bytes: number,
    uses: Uses,
    latency: number,
    fills: VictimFills,
    label: string,
  ): Program<Flow> {
    this.chargeWritebacks(core, uses, bytes);
    const flow = this.startFlow(bytes, uses, latency, label);
    if (read !== undefined) this.streams.add(this.sharedOwnIds.get(core)!, read, flow);
    yield* wait(flow);
    this.fillVictims(fills);
    return flow;
  }

  /**
   * `core` reads or writes every byte of `r` itself: a program using its own data, such as a
   * benchmark that initialises what it sends and reads what it received. The caches see a reading
   * pass as a copy's source and a writing one as a destination written with ordinary stores (a
   * loop's, which read each line for ownership). The core bounds a reading pass by its sustained
   * load rate, the figure each preset gives as costs.reduceBandwidth (half its load ports' bytes per
   * cycle), and a writing pass by its copy rate, which the presets derive from the store port
   * (costs.copyBandwidth). The content stays as it is: a writing pass stands for a program rewriting
   * what its buffer holds.
   */
  *pass(core: number, r: Range, access: PassAccess, info: CopyInfo): Program<void> {
    yield* this.onRankThread(info.rank, this.passNow(core, r, access, info));
  }

  private *passNow(core: number, r: Range, access: PassAccess, info: CopyInfo): Program<void> {
    if (this.pages.pending) yield* faultIn(this, core, [r], info.rank);
    const start = this.sim.now;
    const uses: Uses = new Map();
    const fills: VictimFills = [];
    const { copyBandwidth, reduceBandwidth } = this.spec.costs;
    let latency: number;
    // A reading pass is a stream other readers of the range may follow (shared-streams.ts).
    let read: Range | undefined;
    if (access === 'read') {
      add(uses, this.coreResource(core), copyBandwidth / reduceBandwidth);
      latency = this.planRead(core, r, uses, 1);
      this.touch(core, r, false, fills);
      read = r;
    } else {
      add(uses, this.coreResource(core), 1);
      const write = this.planWrite(core, r, uses, 1, { store: 'rfo' });
      latency = write.latency;
      this.touch(core, r, true, fills, 'rfo', write.kept);
    }
    const flow = yield* this.streamAccess(core, read, r.bytes, uses, latency, fills, info.label);
    this.recordStep(info, `buffer-${access}`, start, r.bytes, flow);
  }

  /**
   * Dirty lines this core's outermost cache evicted to make room for an access go back to their
   * home memory while the access streams: that traffic is part of the access's flow, `bytes` being
   * what the flow moves.
   */
  private chargeWritebacks(core: number, uses: Uses, bytes: number): void {
    const local = this.topo.cachesOf(core);
    const outer = local[local.length - 1];
    // Per home, not per buffer, as the cache's fingerprint assumes (CacheState.takeWritebacksByHome).
    const evicted = outer && bytes > 0 ? this.cacheState.get(outer.id)!.takeWritebacksByHome() : undefined;
    if (evicted === undefined) return;
    const coreVertex = this.topo.coreVertex(core);
    for (const [home, written] of evicted) if (home >= 0) this.addMemoryWrite(uses, coreVertex, home, written / bytes);
  }

  /** Writing `share` of a flow's bytes from `from` into NUMA node `numa`'s memory: the route there,
   *  and the memory's writes (addMemoryWriteUse). */
  private addMemoryWrite(uses: Uses, from: VertexId, numa: number, share: number): void {
    this.addMemoryWriteUse(uses, numa, share);
    for (const link of this.routeResources(from, this.topo.numa(numa).attach)) add(uses, link, share);
  }

  /** The trace event of a copy or reduction that ran from `start` until now, naming what held it. */
  private recordStep(info: CopyInfo, kind: string, start: number, bytes: number, flow: Flow): void {
    this.trace.record({
      rank: info.rank,
      kind: info.kind ?? kind,
      label: info.label,
      start,
      end: this.sim.now,
      bytes,
      resource: flow.mainBottleneck()?.name,
    });
  }

  /** Starts a flow over explicit resources (DMA engines, NICs) and waits for it. */
  *flow(bytes: number, uses: Uses, latency: number, label: string): Program<void> {
    yield* wait(this.startFlow(bytes, uses, latency, label));
  }

  private startFlow(bytes: number, uses: Uses, latency: number, label: string): Flow {
    // From the map itself: copies are many, and a list of uses made for each costs the collector.
    return this.net.startMapped(bytes, uses, latency, label);
  }

  /**
   * Adds the resources reading `r` from `core` costs, weighted by the share of bytes each serves,
   * times `scale`. Returns the latency of the first access.
   */
  planRead(core: number, r: Range, uses: Uses, scale: number): number {
    if (r.bytes === 0) return 0;
    const parts = this.locate(core, r, true);
    for (const part of parts) {
      const share = (scale * part.bytes) / r.bytes;
      for (const resource of part.resources) add(uses, resource, share);
      this.queues.charge(uses, core, share, part.latency, part.far, r.bytes);
    }
    return parts[0].latency;
  }

  /**
   * Adds the resources writing `r` from `core` costs, by how the routine stores (store-kind.ts).
   *
   * Cached stores are charged to the innermost of the core's caches whose half holds the destination
   * (the source competes for the other half), else to the outermost; what cannot stay there (half
   * of it) streams to the destination's memory across the route.
   * Each written line is first owned by this core: a line another socket's cache holds is
   * invalidated there (a round trip to that cache), and the ownership request waits as long as a
   * read from where the line is, holding the core's miss queues like a load. An 'rfo' store also
   * reads the line's old bytes from there (the read-for-ownership's traffic); a 'full-line' store
   * claims the line without its data. A 'non-temporal' store sends every byte to memory through a
   * write-combining buffer, leaves nothing in cache and reads nothing. With `justRead` the core has
   * just loaded these lines itself (a reduction's destination, charged by planRead): the store then
   * fetches nothing again and pays only the invalidation of other sockets' copies. Returns the bytes
   * the outermost cache keeps dirty (their write-back is charged when they are evicted), and how
   * long the first store waits for its line (none for a write-combining store).
   */
  planWrite(
    core: number,
    r: Range,
    uses: Uses,
    scale: number,
    opts: { justRead?: boolean; store?: StoreKind } = {},
  ): { kept: number; latency: number } {
    const n = r.bytes;
    if (n === 0) return { kept: 0, latency: 0 };
    if (r.buf.home === undefined) r.buf.home = this.topo.core(core).numa;
    const store = opts.store ?? 'rfo';
    const coreVertex = this.topo.coreVertex(core);
    const numa = this.topo.numa(r.buf.home);
    const local = this.topo.cachesOf(core);
    const outer = local[local.length - 1];
    const kept = outer && store !== 'non-temporal' ? Math.min(n, outer.sizeBytes / 2) : 0;
    // The stores land in L1 (write-allocate) and leave a level only when it overflows: a copy whose
    // source and destination fit in a level (the destination in half of it) writes at that level's
    // bandwidth; a larger one streams its dirty lines out to the outermost cache.
    if (kept > 0) {
      const keeper = local.find((cache) => n <= cache.sizeBytes / 2) ?? outer;
      add(uses, this.cacheBandwidth.get(keeper.id)!, (scale * kept) / n);
    }
    const spilled = n - kept;
    if (spilled > 0) this.addMemoryWrite(uses, coreVertex, numa.id, (scale * spilled) / n);
    const { shared, invalidation } = this.sharedElsewhere(core, r);
    const peers = this.heldByPeers(core, r);
    if (peers.bytes > 0) this.queues.chargeClaims(uses, core, (scale * peers.bytes) / n, peers.latency);
    if (store === 'non-temporal') {
      const toMemory = numa.latencyNs + this.topo.routeLatency(coreVertex, numa.attach);
      this.queues.chargeUnprefetched(uses, core, scale, Math.max(toMemory, (shared / n) * invalidation));
      return { kept: 0, latency: 0 };
    }
    let counted = 0;
    let latency: number | undefined;
    for (const part of this.locate(core, r)) {
      // Parts come in the order locate looks (own caches first); the shared bytes are taken as the
      // first ones (a buffer a peer just read is still in this core's cache too).
      const invalidated = Math.max(0, Math.min(part.bytes, shared - counted));
      counted += part.bytes;
      if (opts.justRead) {
        this.queues.charge(uses, core, (scale * invalidated) / n, invalidation, true, n);
        latency ??= invalidated > 0 ? invalidation : 0;
        continue;
      }
      const share = (scale * part.bytes) / n;
      if (store === 'rfo') for (const resource of part.resources) add(uses, resource, share);
      const wait = store === 'rfo' ? part.latency : part.claimLatency;
      this.queues.charge(uses, core, (scale * invalidated) / n, Math.max(wait, invalidation), true, n);
      this.queues.charge(uses, core, (scale * (part.bytes - invalidated)) / n, wait, part.far, n);
      latency ??= invalidated > 0 ? Math.max(wait, invalidation) : wait;
    }
    return { kept, latency: latency ?? 0 };
  }

  /**
   * How much of `r` the private caches of other cores of this core's socket hold (the most any one
   * of them holds), and the latency of invalidating it there: a transfer between cores behind the cache
   * they share (topology.ts, peerLatency).
   */
  private heldByPeers(core: number, r: Range): { bytes: number; latency: number } {
    const peers = this.socketPeers.get(core);
    let bytes = 0;
    let latency = 0;
    if (peers === undefined) return { bytes, latency };
    for (const state of this.holders.of(r.buf.id) ?? []) {
      const shared = peers.get(state);
      if (shared === undefined) continue;
      const resident = state.residentBytes(r.buf.id, r.offset, r.bytes);
      if (resident > bytes) {
        bytes = resident;
        latency = peerLatency(shared);
      }
    }
    return { bytes, latency };
  }

  /** Bytes of `r` resident in `state`, looked up only where `held` (the caches holding some of the
   *  buffer) says there can be some. */
  private residentIn(held: ReadonlySet<CacheState> | undefined, state: CacheState, r: Range): number {
    return held !== undefined && held.has(state) ? state.residentBytes(r.buf.id, r.offset, r.bytes) : 0;
  }

  /** The most of `r` any one of `states` holds. */
  private mostHeld(states: readonly CacheState[], r: Range, held: ReadonlySet<CacheState> | undefined): number {
    let most = 0;
    if (held === undefined) return most;
    for (const state of states) most = Math.max(most, this.residentIn(held, state, r));
    return most;
  }

  /**
   * How much of `r` another socket's last-level cache holds, and the round trip to invalidate it
   * there before this core may own the lines.
   */
  private sharedElsewhere(core: number, r: Range): { shared: number; invalidation: number } {
    const own = this.ownCaches.get(core);
    let sharer: CacheSpec | undefined;
    let shared = 0;
    // Only the caches the index says hold some of the buffer can share it; of two holding as much,
    // the one first in `lastLevel`'s order is chosen, as by a full scan.
    let sharerRank = Infinity;
    const holders = this.holders.of(r.buf.id);
    if (holders !== undefined)
      for (const state of holders) {
        const rank = this.lastLevelRank.get(state);
        if (rank === undefined) continue;
        const cache = this.lastLevel[rank];
        if (own?.has(cache)) continue;
        const resident = state.residentBytes(r.buf.id, r.offset, r.bytes);
        if (resident > shared || (resident === shared && resident > 0 && rank < sharerRank)) {
          shared = resident;
          sharer = cache;
          sharerRank = rank;
        }
      }
    const invalidation = sharer
      ? sharer.latencyNs + this.topo.routeLatency(this.topo.coreVertex(core), this.topo.coreVertex(sharer.cores[0]))
      : 0;
    return { shared, invalidation };
  }

  /** The eligible owners by their cache state (dirty-owners.ts), built when first needed; a core's
   *  own group is skipped where they are read. */
  private ownerTable(): Map<CacheState, OwnerCandidate> {
    this.owners ??= new Map(
      this.ownerCandidates.eligible.map((cache, order) => [
        this.cacheState.get(cache.id)!,
        { cache, order, group: this.topo.coreVertex(cache.cores[0]) },
      ]),
    );
    return this.owners;
  }

  /**
   * Where the bytes of `r` are as seen from `core`: in its own caches (nearest first), in another
   * socket's last-level cache, in a memory-side cache, or in memory. Each part lists the resources
   * its bytes cross and the latency of reaching them.
   */
  private locate(core: number, r: Range, reading = false): Part[] {
    const n = r.bytes;
    if (r.buf.home === undefined) r.buf.home = this.topo.core(core).numa;
    const parts: Part[] = [];
    const local = this.topo.cachesOf(core);
    let found = 0;
    const shared = reading ? this.sharedOwn.get(core) : undefined;
    // Only the caches the index says hold some of the buffer are looked up: on a big node a buffer
    // sits in a handful of the caches this walk would otherwise search.
    const held = this.holders.of(r.buf.id);
    for (const cache of local) {
      let resident = this.residentIn(held, this.cacheState.get(cache.id)!, r);
      if (shared?.has(cache)) resident = Math.max(resident, this.streams.followed(cache.id, cache.sizeBytes, r));
      if (resident > found) {
        // What another core behind this cache holds in its private caches comes from there, one
        // cache-to-cache transfer per line (CacheSpec.peerLatencyNs); the rest from this cache.
        const peers =
          reading && cache.peerLatencyNs !== undefined && !cache.victim
            ? this.peersBehind.get(core)?.get(cache)
            : undefined;
        const fromPeers = peers ? Math.min(resident - found, this.mostHeld(peers, r, held)) : 0;
        const far = this.queues.beyondPrefetch(cache.level);
        const resources = this.cacheBandwidthOnly.get(cache.id)!;
        if (resident - found > fromPeers)
          parts.push({
            bytes: resident - found - fromPeers,
            latency: cache.latencyNs,
            resources,
            far,
            claimLatency: cache.latencyNs,
          });
        if (fromPeers > 0)
          parts.push({
            bytes: fromPeers,
            latency: peerLatency(cache),
            resources,
            far,
            claimLatency: peerLatency(cache),
          });
        found = resident;
      }
    }
    if (found === n) return parts;
    const sibling =
      held === undefined
        ? undefined
        : bestSibling(this.siblings.get(core), this.cacheState, held, r.buf.id, r.offset, n);
    if (sibling !== undefined && sibling.bytes > found) {
      parts.push({
        bytes: sibling.bytes - found,
        latency: sibling.latencyNs,
        resources: this.cacheBandwidthOnly.get(sibling.cache.id)!,
        far: true,
        claimLatency: sibling.latencyNs,
      });
      found = sibling.bytes;
    }
    if (found === n) return parts;
    // The home socket's cache may hold what this core's caches lack (a peer there just wrote it):
    // a miss goes to the buffer's home, whose snoop finds lines cached on that socket. Copies in a
    // third socket's cache are not consulted: clean data is served by its home.
    const coreVertex = this.topo.coreVertex(core);
    const homeVertex = this.topo.numa(r.buf.home).attach;
    let bestRemote: CacheSpec | undefined;
    let bestResident = 0;
    const own = this.ownCaches.get(core);
    for (const cache of this.lastLevelAt.get(homeVertex) ?? []) {
      if (own?.has(cache)) continue;
      const resident = this.residentIn(held, this.cacheState.get(cache.id)!, r);
      if (resident > bestResident) {
        bestResident = resident;
        bestRemote = cache;
      }
    }
    const remote = Math.min(bestResident, n - found);
    if (bestRemote && remote > 0) {
      const from = this.topo.coreVertex(bestRemote.cores[0]);
      // Where the home is the reader's own package, a cache of it that the reader does not share
      // (another core complex, another tile) answers the snoop, and acknowledges a store's claim,
      // the way a line passes between the two cores (lineLatency), not at its own hit latency. The
      // home socket's cache read from another socket still answers at its hit latency and the
      // route: docs/model.md, "Lines between cores", says what that leaves inconsistent.
      const latency =
        from === coreVertex
          ? this.topo.lineLatency(bestRemote.cores[0], core)
          : bestRemote.latencyNs + this.topo.routeLatency(from, coreVertex);
      parts.push({
        bytes: remote,
        latency,
        resources: [this.cacheBandwidth.get(bestRemote.id)!, ...this.routeResources(from, coreVertex)],
        far: true,
        claimLatency: latency,
      });
      found += remote;
    }
    if (found === n) return parts;
    // Lines another group of cores holds Modified come from their owner, not from memory
    // (dirty-owners.ts). The data takes the route from the owner's socket to the reader, at the
    // latency of a line passed from one core to the other, as a flag's; between two groups of one
    // socket that share no cache (the two dies of a front-side-bus package) it passes through the
    // line's home, as their bus transactions do. A store that claims the lines waits for the owner's
    // invalidation only: its cache's latency and the route.
    if (held !== undefined) {
      const homeLast = this.lastLevelAt.get(homeVertex);
      const candidates = this.ownerCandidates;
      const owners = bestOwners(
        held,
        this.ownerTable(),
        (cache) => (homeLast?.includes(cache) ?? false) || !candidates.answers(core, cache),
        (state) => state.dirtyBytes(r.buf.id, r.offset, r.bytes),
      );
      for (const { cache: owner, bytes } of owners) {
        const fromOwner = Math.min(bytes, n - found);
        if (fromOwner <= 0) break;
        const from = this.topo.coreVertex(owner.cores[0]);
        const viaHome = from === coreVertex && homeVertex !== coreVertex;
        const route = viaHome
          ? [...this.routeResources(from, homeVertex), ...this.routeResources(homeVertex, coreVertex)]
          : this.routeResources(from, coreVertex);
        const trip = viaHome
          ? this.topo.routeLatency(from, homeVertex) + this.topo.routeLatency(homeVertex, coreVertex)
          : this.topo.routeLatency(from, coreVertex);
        const latency = viaHome
          ? this.topo.numa(r.buf.home).latencyNs + trip
          : this.topo.lineLatency(owner.cores[0], core);
        parts.push({
          bytes: fromOwner,
          latency,
          resources: [this.cacheBandwidth.get(owner.id)!, ...route],
          far: true,
          claimLatency: owner.latencyNs + trip,
        });
        found += fromOwner;
      }
    }
    const missing = n - found;
    if (missing > 0) {
      const numa = this.topo.numa(r.buf.home);
      const latency = numa.latencyNs + this.topo.routeLatency(numa.attach, coreVertex);
      const route = this.routeResources(numa.attach, coreVertex);
      const memSide = this.topo.memorySideCaches()[0];
      // Behind a memory-side cache, its hits are served by it and its misses by the DRAM behind it.
      const hit = memSide ? Math.min(missing, this.residentIn(held, this.cacheState.get(memSide.id)!, r)) : 0;
      // Claiming a line cached nowhere takes a round trip to its home agent, which answers from its
      // snoop results or directory without reading DRAM: the route there and the home socket's
      // last-level lookup.
      const homeLookup = this.homeLookup.get(numa.id)!;
      const claimLatency = Math.min(latency, homeLookup + this.topo.routeLatency(numa.attach, coreVertex));
      if (hit > 0)
        parts.push({
          bytes: hit,
          latency,
          resources: [this.cacheBandwidth.get(memSide.id)!, ...route],
          far: true,
          claimLatency,
        });
      if (missing > hit)
        parts.push({
          bytes: missing - hit,
          latency,
          resources: [this.memory.get(numa.id)!, ...route],
          far: true,
          claimLatency,
        });
    }
    return parts;
  }

  /** What victim caches receive from a copy, applied at its end (touch). */
  fillVictims(fills: VictimFills): void {
    for (const fill of fills) fill();
  }

  /** Touches [start, start + length) of range `r` in `state`, the part within the last `kept`
   *  bytes of `r` dirty (the written bytes a cache keeps), the rest as it was. */
  private touchWritten(
    state: CacheState,
    r: Range,
    start: number,
    length: number,
    kept: number,
    sink?: EvictionSink,
  ): void {
    const dirtyFrom = Math.max(start, r.offset + r.bytes - kept);
    const clean = Math.min(length, Math.max(0, dirtyFrom - start));
    if (clean > 0) state.touch(r.buf.id, start, clean, false, sink);
    if (length > clean) state.touch(r.buf.id, start + clean, length - clean, true, sink);
  }

  /**
   * Residency is taken when a copy starts, not when it ends: the lines arrive while it streams, so
   * a second reader of the same data on the same cache, starting meanwhile, hits what the first one
   * brings in (many readers of one broadcast buffer load memory once per socket, not once each).
   *
   * After an access: the range is now most recently used in the core's caches; a write makes
   *  every other cache's copy stale. */
  private touch(
    core: number,
    accessed: Range,
    written: boolean,
    fills: VictimFills,
    store: StoreKind = 'rfo',
    keptDirtyBytes = 0,
  ): void {
    if (accessed.bytes === 0) return;
    // The caches take the whole lines the access touches (cache-lines.ts); the written bytes kept
    // dirty, the tail of the access, reach to the end of its last line, and to the start of its
    // first one when the whole access is kept.
    const { lines: r, before, after } = lineExtent(accessed, this.lineBytes);
    const keptDirty =
      keptDirtyBytes === 0 ? 0 : keptDirtyBytes + after + (keptDirtyBytes >= accessed.bytes ? before : 0);
    if (store === 'non-temporal') {
      // Written around the caches: no cache keeps a copy, this core's own included.
      for (const state of [...(this.holders.of(r.buf.id) ?? [])]) state.invalidateRange(r.buf.id, r.offset, r.bytes);
      return;
    }
    const local = this.topo.cachesOf(core);
    const outer = local[local.length - 1];
    // What the cache just below a victim cache pushes out during this touch, oldest first.
    let pushedOut: Array<[buf: number, start: number, length: number, dirty: boolean, stale: boolean]> | undefined;
    for (let i = 0; i < local.length; i++) {
      const cache = local[i];
      const state = this.cacheState.get(cache.id)!;
      if (cache.victim) {
        // A victim cache receives only what the caches below it evict: the head of a stream longer
        // than they hold, and whatever older data the stream pushes out of them. They evict it as
        // the stream goes, so it lands there by the copy's end: a reader streaming the same buffer
        // alongside, on the same socket, does not find it there (it reads before the eviction).
        const pieces = pushedOut;
        const tail = cache === outer ? keptDirty : r.bytes;
        if (pieces !== undefined)
          fills.push(() => {
            for (const [buf, start, length, wasDirty, stale] of pieces) {
              if (stale) state.touchStale(buf, start, length);
              else if (buf !== r.buf.id || !written) state.touch(buf, start, length, wasDirty);
              else this.touchWritten(state, r, start, length, tail);
            }
          });
        pushedOut = undefined;
        continue;
      }
      const sink: EvictionSink | undefined = local[i + 1]?.victim
        ? (buf, start, length, wasDirty, stale) => (pushedOut ??= []).push([buf, start, length, wasDirty, stale])
        : undefined;
      // The written bytes the outermost cache keeps are dirty there: memory gets them when evicted.
      // Behind a victim cache a private cache keeps what it wrote dirty too, for siblings' probes.
      let kept = 0;
      if (written && cache === outer) kept = keptDirty;
      else if (written && this.dirtyPrivate.has(cache.id)) kept = r.bytes;
      this.touchWritten(state, r, r.offset, r.bytes, kept, sink);
    }
    for (const memSide of this.memorySideStates) memSide.touch(r.buf.id, r.offset, r.bytes);
    if (!written) return;
    // Only the caches holding some of this buffer can hold a stale copy of the range. Each cache's
    // state is its own, so visiting them in the index's order instead of the machine's changes
    // nothing.
    const holders = this.holders.of(r.buf.id);
    if (holders === undefined) return;
    const kept = this.keptOnWrite.get(core) ?? this.memorySideIds;
    for (const state of holders) {
      if (kept.has(state.name)) continue;
      state.invalidateRange(r.buf.id, r.offset, r.bytes);
    }
  }
}

// The candidate owners are derived from the machine alone and filled in as cores first need them:
// whether a core's list is built yet never changes what the simulation does.
// The siblings' table and the kept routes are the spec's, whenever built: they never change what a
// run does.
// allocated sums the sizes of the buffers the state holds. Each cache's one-resource list holds
// the resource its bandwidth map gives, made with it.
stateRules(Node, {
  allocated: 'ignore',
  cacheBandwidthOnly: 'ignore',
  owners: 'ignore',
  ownerCandidates: 'ignore',
  routeResourceCache: 'ignore',
  siblings: 'ignore',
});
