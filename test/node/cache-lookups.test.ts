// The lookups a copy's planning makes on every call, answered from tables built once: each must
// give what the plain definition gives, on every preset and on random machines built to break them
// (caches listed against level order, two of one level, several victim caches over one core, a
// memory-side cache among the others), and the same on a second asking.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CacheState } from '../../sim/node/cache.ts';
import { OwnerCandidates } from '../../sim/node/dirty-owners.ts';
import { bestSibling, keptDirtyIds, siblingCachesByCore } from '../../sim/node/sibling-caches.ts';
import { outermostAmong, outermostCaches, peerLatency, Topology } from '../../sim/node/topology.ts';
import { loadPreset, presetNames } from '../../hardware/presets.ts';
import type { CacheSpec, MachineSpec } from '../../hardware/spec.ts';

const presets = presetNames().map((name) => loadPreset(name));

/** A machine of up to three packages in a chain, whose caches are drawn: any level, any cores, victim
 *  or not, listed in any order, with a memory-side cache somewhere among them. Only the fields the
 *  lookups read are filled. */
const randomMachine = fc
  .record({
    packages: fc.integer({ min: 1, max: 3 }),
    cores: fc.integer({ min: 1, max: 8 }),
    caches: fc.array(
      fc.record({
        level: fc.integer({ min: 1, max: 3 }),
        of: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
        victim: fc.boolean(),
        latency: fc.integer({ min: 1, max: 50 }),
        peer: fc.option(fc.integer({ min: 1, max: 50 }), { nil: undefined }),
      }),
      { maxLength: 12 },
    ),
    memorySideAt: fc.option(fc.nat(), { nil: undefined }),
    links: fc.array(fc.integer({ min: 1, max: 100 }), { minLength: 2, maxLength: 2 }),
  })
  .map(({ packages, cores, caches, memorySideAt, links }) => {
    const ids = Array.from({ length: cores }, (_, i) => 2 * i + 1);
    const list = caches.flatMap((c, i) => {
      const of = ids.filter((_, j) => c.of[j]);
      if (of.length === 0) return [];
      const peer = of.length > 1 && c.peer !== undefined ? { peerLatencyNs: c.peer } : {};
      return [{ id: `c${i}`, level: c.level, cores: of, victim: c.victim, latencyNs: c.latency, ...peer }];
    });
    if (memorySideAt !== undefined)
      list.splice(memorySideAt % (list.length + 1), 0, {
        id: 'side',
        level: 4,
        cores: ids,
        victim: false,
        memorySide: true,
        latencyNs: 5,
      } as never);
    return {
      name: 'random',
      packages: Array.from({ length: packages }, (_, id) => ({ id })),
      hubs: [],
      numaNodes: Array.from({ length: packages }, (_, id) => ({ id, attach: `pkg${id}`, latencyNs: 70 + id })),
      cores: ids.map((id, i) => ({ id, package: i % packages, numa: i % packages })),
      caches: list,
      links: Array.from({ length: packages - 1 }, (_, p) => ({
        name: `l${p}`,
        a: `pkg${p}`,
        b: `pkg${p + 1}`,
        latencyNs: links[p],
        bandwidth: 1,
      })),
      routing: { kind: 'shortest' },
    } as unknown as MachineSpec;
  });

/** Every preset, then `count` random machines. */
const machines = (count: number): MachineSpec[] => [
  ...presets,
  ...fc.sample(randomMachine, { numRuns: count, seed: 7 }),
];

/** The definitions the tables stand for, written the slow and obvious way. */
const plain = {
  outermost: (caches: readonly CacheSpec[]) =>
    caches.filter(
      (c) => !c.memorySide && !caches.some((o) => !o.memorySide && o.level > c.level && o.cores.includes(c.cores[0])),
    ),
  cachesOf: (spec: MachineSpec, core: number) =>
    spec.caches.filter((c) => !c.memorySide && c.cores.includes(core)).sort((a, b) => a.level - b.level),
  /** The outermost of each group and each core's outermost private cache behind a victim cache. */
  eligibleOwners: (spec: MachineSpec, dirtyPrivate: ReadonlySet<string>) => {
    const outermost = new Set(plain.outermost(spec.caches).map((c) => c.id));
    const kept = spec.caches.filter((c) => dirtyPrivate.has(c.id));
    const outer = kept.filter((c) => !kept.some((o) => o !== c && o.level > c.level && o.cores.includes(c.cores[0])));
    return spec.caches.filter((c) => !c.memorySide && (outermost.has(c.id) || outer.some((o) => o.id === c.id)));
  },
  siblings: (spec: MachineSpec, core: number) => {
    const victim = spec.caches.find((c) => c.victim && !c.memorySide && c.cores.includes(core));
    if (victim === undefined) return undefined;
    return spec.caches.filter(
      (c) => !c.memorySide && !c.victim && !c.cores.includes(core) && c.cores.every((o) => victim.cores.includes(o)),
    );
  },
};

/** Every route between `vertices` is a chain of the spec's links with the fewest hops and, among
 *  those, the least latency (or the routing table's path), and its latency is the links' sum;
 *  asked twice, for the cached answer. */
function checkRoutes(spec: MachineSpec, topo: Topology, vertices: string[]): void {
  for (const from of vertices)
    for (const to of vertices)
      for (let ask = 0; ask < 2; ask++) {
        const route = topo.route(from, to);
        // A chain of the spec's links from `from` to `to`...
        let at = from;
        for (const hop of route) {
          expect([hop.link.a, hop.link.b].sort(), spec.name).toEqual([at, hop.to].sort());
          at = hop.to;
        }
        expect(at, spec.name).toBe(to);
        // ...with the fewest hops and, among those, the least latency (or the routing table's).
        const latency = route.reduce((sum, h) => sum + h.link.latencyNs, 0);
        const table = spec.routing.kind === 'table' ? spec.routing.routes[`${from}->${to}`] : undefined;
        if (table) expect([from, ...route.map((h) => h.to)], spec.name).toEqual(table);
        else {
          const best = fewestHopsLeastLatency(spec, from, to);
          expect(route.length, spec.name).toBe(best.hops);
          expect(latency, spec.name).toBeCloseTo(best.latency, 9);
        }
        expect(topo.routeLatency(from, to), spec.name).toBe(latency);
      }
}

/** Packages joined in a chain plus extra links of drawn latencies: routes with alternatives, where
 *  the fewest hops and then the least latency decide. Only the fields the topology reads are filled. */
const meshMachine = fc
  .record({
    packages: fc.integer({ min: 2, max: 6 }),
    chain: fc.array(fc.integer({ min: 1, max: 100 }), { minLength: 5, maxLength: 5 }),
    extra: fc.array(fc.record({ a: fc.nat(5), b: fc.nat(5), latency: fc.integer({ min: 1, max: 100 }) }), {
      maxLength: 8,
    }),
  })
  .map(({ packages, chain, extra }) => {
    const pkg = (i: number) => `pkg${i % packages}`;
    const links = [
      ...Array.from({ length: packages - 1 }, (_, p) => ({ a: pkg(p), b: pkg(p + 1), latencyNs: chain[p] })),
      ...extra
        .filter((e) => e.a % packages !== e.b % packages)
        .map((e) => ({ a: pkg(e.a), b: pkg(e.b), latencyNs: e.latency })),
    ].map((l, i) => ({ name: `l${i}`, bandwidth: 1, ...l }));
    return {
      name: 'mesh',
      packages: Array.from({ length: packages }, (_, id) => ({ id })),
      hubs: [],
      numaNodes: Array.from({ length: packages }, (_, id) => ({ id, attach: `pkg${id}`, latencyNs: 70 })),
      cores: Array.from({ length: packages }, (_, id) => ({ id, package: id, numa: id })),
      caches: [],
      links,
      routing: { kind: 'shortest' },
    } as unknown as MachineSpec;
  });

/** The fewest links between two vertices of the spec, and the least latency over that many links:
 *  breadth first over the links, then the latency relaxed level by level (independent of the
 *  topology's Dijkstra). */
function fewestHopsLeastLatency(spec: MachineSpec, from: string, to: string): { hops: number; latency: number } {
  let level = new Map<string, number>([[from, 0]]);
  const seen = new Set([from]);
  for (let hops = 0; ; hops++) {
    if (level.has(to)) return { hops, latency: level.get(to)! };
    if (level.size === 0) throw new Error(`${spec.name}: no path from ${from} to ${to}`);
    const next = new Map<string, number>();
    for (const [v, latency] of level)
      for (const link of spec.links) {
        const w = link.a === v ? link.b : link.b === v ? link.a : undefined;
        if (w === undefined || seen.has(w)) continue;
        next.set(w, Math.min(next.get(w) ?? Infinity, latency + link.latencyNs));
      }
    for (const w of next.keys()) seen.add(w);
    level = next;
  }
}

describe('lookups built once', () => {
  it('each core reads through the caches the plain filter gives, and the outermost are the same', () => {
    for (const spec of machines(300)) {
      const topo = new Topology(spec);
      for (const core of spec.cores)
        expect(
          topo.cachesOf(core.id).map((c) => c.id),
          spec.name,
        ).toEqual(plain.cachesOf(spec, core.id).map((c) => c.id));
      expect(
        outermostCaches(spec.caches).map((c) => c.id),
        spec.name,
      ).toEqual(plain.outermost(spec.caches).map((c) => c.id));
    }
  });

  it('the outermost among any set of caches are those no cache of the same core is above', () => {
    for (const spec of machines(300)) {
      const set = spec.caches.filter((c, i) => !c.memorySide && i % 3 !== 1);
      const want = set.filter((c) => !set.some((o) => o.level > c.level && o.cores.includes(c.cores[0])));
      expect(
        outermostAmong(set).map((c) => c.id),
        spec.name,
      ).toEqual(want.map((c) => c.id));
    }
  });

  it("each core's siblings behind a victim cache, and the owners that may answer, are the plain ones", () => {
    for (const spec of machines(300)) {
      const table = siblingCachesByCore(spec);
      for (const core of spec.cores) {
        const victim = spec.caches.find((c) => c.victim && !c.memorySide && c.cores.includes(core.id));
        expect(table.get(core.id)?.victim.id, spec.name).toBe(victim?.id);
        expect(
          table.get(core.id)?.siblings.map((c) => c.id),
          spec.name,
        ).toEqual(plain.siblings(spec, core.id)?.map((c) => c.id));
      }
      const dirty = keptDirtyIds(table);
      const owners = new OwnerCandidates(spec, outermostCaches(spec.caches), dirty);
      expect(
        owners.eligible.map((c) => c.id),
        spec.name,
      ).toEqual(plain.eligibleOwners(spec, dirty).map((c) => c.id));
    }
  });

  it('line latencies, routes and their latencies are the plain ones, asked once or twice', () => {
    for (const spec of machines(200)) {
      const topo = new Topology(spec);
      const vertices = spec.packages.map((p) => `pkg${p.id}`);
      checkRoutes(spec, topo, vertices);
      // Every pair's latency, asked twice, compared once per machine: an expect per pair cost
      // most of this test's time, and one comparison of the lists names every pair that differs.
      const got: string[] = [];
      const want: string[] = [];
      for (const a of spec.cores)
        for (const b of spec.cores) {
          const shared = plain.cachesOf(spec, a.id).find((c) => c.cores.includes(b.id));
          const latency = shared
            ? peerLatency(shared)
            : topo.numa(a.numa).latencyNs + topo.routeLatency(`pkg${a.package}`, `pkg${b.package}`);
          for (let ask = 0; ask < 2; ask++) {
            got.push(`${a.id}->${b.id} ask ${ask}: ${topo.lineLatency(a.id, b.id)}`);
            want.push(`${a.id}->${b.id} ask ${ask}: ${latency}`);
          }
        }
      expect(got, spec.name).toEqual(want);
      expect(() => topo.coreVertex(999)).toThrow(/has no core 999/);
      expect(() => topo.numa(999)).toThrow(/has no NUMA node 999/);
      expect(topo.memorySideCaches().map((c) => c.id)).toEqual(
        spec.caches.filter((c) => c.memorySide).map((c) => c.id),
      );
    }
    for (const spec of fc.sample(meshMachine, { numRuns: 200, seed: 7 }))
      checkRoutes(
        spec,
        new Topology(spec),
        spec.packages.map((p) => `pkg${p.id}`),
      );
  });

  it('the sibling holding most dirty bytes wins, the earlier on a tie, whichever list is walked', () => {
    const spec = presets.find((s) => s.caches.some((c) => c.victim))!;
    const entry = siblingCachesByCore(spec).get(spec.cores[0].id)!;
    const n = entry.siblings.length;
    expect(n).toBeGreaterThan(2);
    let walkedHolding = 0;
    fc.assert(
      fc.property(
        // Dirty bytes per sibling (0: holds the buffer clean, undefined: holds none of it), and the
        // order in which the caches came to hold the buffer.
        fc.array(fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined }), { minLength: n, maxLength: n }),
        fc.shuffledSubarray([...Array(n).keys()], { minLength: n, maxLength: n }),
        (dirty, order) => {
          const states = new Map(entry.siblings.map((c) => [c.id, new CacheState(c.id, 1 << 20)]));
          const holding = new Set<CacheState>();
          for (const i of order) {
            const d = dirty[i];
            if (d === undefined) continue;
            const state = states.get(entry.siblings[i].id)!;
            state.touch(7, 0, 4 * 64, false);
            if (d > 0) state.touch(7, 0, d * 64, true);
            holding.add(state);
          }
          // A cache of another node named as a sibling, holding more than any: not this node's.
          const lookalike = new CacheState(entry.siblings[0].id, 1 << 20);
          lookalike.touch(7, 0, 4 * 64, true);
          holding.add(lookalike);
          // The plain answer: the first sibling holding the most dirty bytes, none if none does.
          let want: { id: string; bytes: number } | undefined;
          entry.siblings.forEach((c, i) => {
            const bytes = (dirty[i] ?? 0) * 64;
            if (bytes > (want?.bytes ?? 0)) want = { id: c.id, bytes };
          });
          const got = bestSibling(entry, states, holding, 7, 0, 4 * 64);
          expect(got && { id: got.cache.id, bytes: got.bytes }).toEqual(want);
          // Walking the other list gives the same: the siblings' list, for a holding set larger than
          // the siblings (n new caches added to it); the first call walked the holding set where it
          // was the smaller, which the count below sees happen.
          if (holding.size < n) walkedHolding++;
          const padded = new Set([...holding, ...entry.siblings.map((c) => new CacheState(`x${c.id}`, 64))]);
          const again = bestSibling(entry, states, padded, 7, 0, 4 * 64);
          expect(again && { id: again.cache.id, bytes: again.bytes }).toEqual(want);
        },
      ),
    );
    expect(walkedHolding).toBeGreaterThan(0);
  });
});
