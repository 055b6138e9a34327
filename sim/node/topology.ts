// Static facts derived once from a MachineSpec: the interconnect graph and its routes, which caches
// each core uses, and how far apart two cores are. Nothing here changes during a run.
import { stateRules } from '../../common/state-fingerprint.ts';
import { PairTable } from './pair-table.ts';
import { packageVertex, type CacheSpec, type LinkSpec, type MachineSpec, type VertexId } from '../../hardware/spec.ts';

/** One direction of one link, as crossed by a route. */
export interface Hop {
  link: LinkSpec;
  from: VertexId;
  to: VertexId;
}

export class Topology {
  readonly spec: MachineSpec;
  private readonly coreIndex = new Map<number, number>();
  private readonly cachesOfCore = new Map<number, CacheSpec[]>();
  private readonly adjacency = new Map<VertexId, Hop[]>();
  // Asked on every copy's planning (where its bytes come from, what a line costs between two cores),
  // so each answer is kept once worked out; none of them changes during a run.
  private readonly routeCache = new PairTable<VertexId, readonly Hop[]>();
  private readonly routeLatencyCache = new PairTable<VertexId, number>();
  /** Per core, the line latency to every core by the other's index (NaN until asked): a table of
   *  numbers, which a machine of a thousand cores asked for every pair holds in 8 MB. */
  private readonly lineLatencyCache = new Map<number, Float64Array>();
  private readonly vertexOfCore = new Map<number, VertexId>();
  private readonly numaById = new Map<number, MachineSpec['numaNodes'][number]>();
  private readonly memorySide: readonly CacheSpec[];

  constructor(spec: MachineSpec) {
    this.spec = spec;
    spec.cores.forEach((c, i) => {
      this.coreIndex.set(c.id, i);
      this.vertexOfCore.set(c.id, packageVertex(c.package));
    });
    for (const n of spec.numaNodes) if (!this.numaById.has(n.id)) this.numaById.set(n.id, n);
    this.memorySide = spec.caches.filter((c) => c.memorySide);
    // Nearest first: a read looks in L1, then L2, then the shared last level. One pass over the
    // caches, each listed under its cores in the spec's order, then a stable sort by level.
    for (const core of spec.cores) this.cachesOfCore.set(core.id, []);
    for (const cache of spec.caches)
      if (!cache.memorySide) for (const core of cache.cores) this.cachesOfCore.get(core)?.push(cache);
    for (const caches of this.cachesOfCore.values()) caches.sort((a, b) => a.level - b.level);
    const vertices = new Set<VertexId>([
      ...spec.packages.map((p) => packageVertex(p.id)),
      ...spec.hubs.map((h) => h.id),
    ]);
    for (const v of vertices) this.adjacency.set(v, []);
    for (const link of spec.links) {
      this.adjacency.get(link.a)?.push({ link, from: link.a, to: link.b });
      this.adjacency.get(link.b)?.push({ link, from: link.b, to: link.a });
    }
  }

  core(id: number) {
    const i = this.coreIndex.get(id);
    if (i === undefined) throw new Error(`machine ${this.spec.name} has no core ${id}`);
    return this.spec.cores[i];
  }

  coreVertex(core: number): VertexId {
    const v = this.vertexOfCore.get(core);
    if (v === undefined) throw new Error(`machine ${this.spec.name} has no core ${core}`);
    return v;
  }

  numa(id: number) {
    const node = this.numaById.get(id);
    if (!node) throw new Error(`machine ${this.spec.name} has no NUMA node ${id}`);
    return node;
  }

  /** Caches a core reads through, nearest first (memory-side caches excluded). */
  cachesOf(core: number): readonly CacheSpec[] {
    return this.cachesOfCore.get(core) ?? [];
  }

  /** Memory-side caches in front of every memory (KNL's MCDRAM in cache mode). */
  memorySideCaches(): readonly CacheSpec[] {
    return this.memorySide;
  }

  /** The smallest cache both cores share, if any. */
  sharedCache(a: number, b: number): CacheSpec | undefined {
    return this.cachesOf(a).find((c) => c.cores.includes(b));
  }

  /** Vertex path from `from` to `to` as directed hops: an explicit routing table, else fewest hops,
   *  ties broken by total latency, then by link order in the spec (deterministic). */
  route(from: VertexId, to: VertexId): readonly Hop[] {
    if (from === to) return [];
    const cached = this.routeCache.get(from, to);
    if (cached) return cached;
    const key = `${from}->${to}`;
    const hops =
      this.spec.routing.kind === 'table' && this.spec.routing.routes[key]
        ? this.hopsAlong(this.spec.routing.routes[key])
        : this.shortest(from, to);
    return this.routeCache.set(from, to, hops);
  }

  routeLatency(from: VertexId, to: VertexId): number {
    const cached = this.routeLatencyCache.get(from, to);
    if (cached !== undefined) return cached;
    return this.routeLatencyCache.set(
      from,
      to,
      this.route(from, to).reduce((sum, h) => sum + h.link.latencyNs, 0),
    );
  }

  /**
   * Time for one cache line written by core `a` to be seen by core `b`: the latency of the cache
   * they share; else, on one package and NUMA node, the node's measured trip where the machine
   * gives one; else a miss to the writer's memory crossing the links between them. This is what a
   * polling receiver pays per flag or queue cell, and what makes small messages placement-dependent.
   */
  lineLatency(a: number, b: number): number {
    const j = this.coreIndex.get(b);
    if (j === undefined) return this.uncachedLineLatency(a, b);
    let row = this.lineLatencyCache.get(a);
    if (row === undefined) {
      row = new Float64Array(this.spec.cores.length).fill(NaN);
      this.lineLatencyCache.set(a, row);
    }
    if (Number.isNaN(row[j])) row[j] = this.uncachedLineLatency(a, b);
    return row[j];
  }

  private uncachedLineLatency(a: number, b: number): number {
    const shared = this.sharedCache(a, b);
    if (shared) return peerLatency(shared);
    const numa = this.numa(this.core(a).numa);
    // Two cores of one package and node: the other core's caches answer the probe, at the node's
    // measured trip where the machine gives one (NumaNodeSpec.peerLatencyNs); otherwise, and across
    // packages or nodes, the line is taken to go through memory and the links between the two.
    const peer = numa.peerLatencyNs;
    if (peer !== undefined && this.core(b).numa === numa.id && this.core(b).package === this.core(a).package)
      return peer;
    return numa.latencyNs + this.routeLatency(this.coreVertex(a), this.coreVertex(b));
  }

  private hopsAlong(path: VertexId[]): Hop[] {
    const hops: Hop[] = [];
    for (let i = 0; i + 1 < path.length; i++) {
      const hop = (this.adjacency.get(path[i]) ?? []).find((h) => h.to === path[i + 1]);
      if (!hop) throw new Error(`routing table of ${this.spec.name}: no link ${path[i]} -> ${path[i + 1]}`);
      hops.push(hop);
    }
    return hops;
  }

  private shortest(from: VertexId, to: VertexId): Hop[] {
    // Dijkstra on (hops, latency): few vertices, so a linear scan for the minimum is enough.
    const best = new Map<VertexId, { hops: number; latency: number; via?: Hop }>([[from, { hops: 0, latency: 0 }]]);
    const done = new Set<VertexId>();
    for (;;) {
      let current: VertexId | undefined;
      for (const [v, d] of best) {
        if (done.has(v)) continue;
        const c = current === undefined ? undefined : best.get(current)!;
        if (!c || d.hops < c.hops || (d.hops === c.hops && d.latency < c.latency)) current = v;
      }
      if (current === undefined) throw new Error(`machine ${this.spec.name}: no route from ${from} to ${to}`);
      if (current === to) break;
      done.add(current);
      const d = best.get(current)!;
      for (const hop of this.adjacency.get(current) ?? []) {
        const next = { hops: d.hops + 1, latency: d.latency + hop.link.latencyNs, via: hop };
        const old = best.get(hop.to);
        if (!old || next.hops < old.hops || (next.hops === old.hops && next.latency < old.latency))
          best.set(hop.to, next);
      }
    }
    const hops: Hop[] = [];
    for (let v = to; v !== from;) {
      const via = best.get(v)!.via!;
      hops.unshift(via);
      v = via.from;
    }
    return hops;
  }
}

/** The caches another core's data may sit in: the outermost non-memory-side level of each group of
 *  cores, in the machine's order. */
export function outermostCaches(caches: readonly CacheSpec[]): CacheSpec[] {
  return outermostAmong(caches.filter((c) => !c.memorySide));
}

/** The caches of `caches` that none of them serving the same (first) core is above, in their order.
 *  One pass for each core's highest level, where asking each cache whether another is above it
 *  would take a pass per cache (a 1,024-core machine has two thousand). */
export function outermostAmong(caches: readonly CacheSpec[]): CacheSpec[] {
  const highest = new Map<number, number>();
  for (const c of caches)
    for (const core of c.cores) highest.set(core, Math.max(highest.get(core) ?? -Infinity, c.level));
  return caches.filter((c) => c.level >= highest.get(c.cores[0])!);
}

/** Whether some cache is a victim cache (AMD's L3 since K10): filled only with what the private
 *  caches below it evict, as each copy ends (docs/model.md, "The node"). */
export function hasVictimCache(caches: readonly CacheSpec[]): boolean {
  return caches.some((c) => c.victim === true);
}

/** A line's trip from one core's private caches to another core's behind `shared` (CacheSpec.peerLatencyNs). */
export function peerLatency(shared: CacheSpec): number {
  return shared.peerLatencyNs ?? shared.latencyNs;
}

// The kept answers are what the machine's spec gives, whenever first asked: they never change what
// a run does, so the state's fingerprint leaves them out.
stateRules(Topology, { routeCache: 'ignore', routeLatencyCache: 'ignore', lineLatencyCache: 'ignore' });
