// Lines passed between cores behind a shared cache (CacheSpec.peerLatencyNs, docs/model.md
// "Lines between cores"): a flag's trip costs the cache-to-cache latency where the machine gives
// one, and a copy of what another core has just written pays it for the lines it takes from there.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../sim/engine/simulation.ts';
import { Node } from '../../sim/node/node.ts';
import { range } from '../../sim/node/buffer.ts';
import { Content } from '../../sim/node/content.ts';
import { Topology } from '../../sim/node/topology.ts';
import { loadPreset, presetNames } from '../../hardware/presets.ts';
import type { MachineSpec } from '../../hardware/spec.ts';

const KiB = 1024;
const presets = presetNames().map((name) => loadPreset(name));

/** Two cores sharing a cache, and that cache: the innermost one shared. */
function pairBehindShared(spec: MachineSpec): { a: number; b: number; level: number } | undefined {
  const shared = spec.caches.filter((c) => !c.memorySide && c.cores.length > 1).sort((x, y) => x.level - y.level)[0];
  return shared ? { a: shared.cores[0], b: shared.cores[1], level: shared.level } : undefined;
}

/** `spec` with every shared cache of `level` given a cache-to-cache latency of `ns`. */
function withPeerLatency(spec: MachineSpec, level: number, ns: number | undefined): MachineSpec {
  const out = structuredClone(spec);
  for (const c of out.caches)
    if (c.level === level && c.cores.length > 1 && !c.memorySide) {
      if (ns === undefined) delete c.peerLatencyNs;
      else c.peerLatencyNs = ns;
    }
  return out;
}

/** Core `writer` writes `bytes` into a segment, then core `reader` copies them out: the read's time. */
function readAfterWrite(spec: MachineSpec, writer: number, reader: number, bytes: number): number {
  const sim = new Simulation({ seed: 'peer-latency' });
  const node = new Node(sim, spec);
  const home = spec.cores.find((c) => c.id === writer)!.numa;
  const src = node.allocate('input', bytes, 0, home);
  src.content = Content.fresh(bytes, 'input');
  const segment = node.allocate('segment', bytes, 1, home);
  const out = node.allocate('out', bytes, 2, home);
  let ns = 0;
  sim.spawn(
    'ranks',
    (function* () {
      yield* node.copy(writer, range(src), range(segment), { rank: 1, label: 'write' });
      const start = sim.now;
      yield* node.copy(reader, range(segment), range(out), { rank: 2, label: 'read' });
      ns = sim.now - start;
    })(),
  );
  sim.run();
  return ns;
}

const cases = presets.flatMap((spec) => {
  const pair = pairBehindShared(spec);
  return pair ? [{ spec, ...pair }] : [];
});

describe('lines between cores behind a shared cache', () => {
  it('a flag between two such cores costs the cache-to-cache latency, else the hit latency', () => {
    expect(cases.length).toBeGreaterThan(3);
    // Presets with and without a published trip: both branches are checked.
    expect(cases.some(({ spec, level }) => spec.caches.some((c) => c.level === level && c.peerLatencyNs))).toBe(true);
    expect(cases.some(({ spec, level }) => spec.caches.every((c) => c.level !== level || !c.peerLatencyNs))).toBe(true);
    for (const { spec, a, b, level } of cases) {
      const shared = spec.caches.find((c) => c.level === level && c.cores.includes(a))!;
      const hit = shared.latencyNs;
      expect(new Topology(spec).lineLatency(a, b), spec.name).toBe(shared.peerLatencyNs ?? hit);
      expect(new Topology(withPeerLatency(spec, level, 3 * hit + 7)).lineLatency(a, b), spec.name).toBe(3 * hit + 7);
    }
  });

  it('reading what another core has just written never gets faster as that trip gets longer', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...cases),
        fc.integer({ min: 1, max: 64 }).map((k) => k * KiB),
        fc.double({ min: 1, max: 200, noNaN: true }),
        fc.double({ min: 1, max: 200, noNaN: true }),
        ({ spec, a, b, level }, bytes, x, y) => {
          const [lo, hi] = x <= y ? [x, y] : [y, x];
          const fast = readAfterWrite(withPeerLatency(spec, level, lo), a, b, bytes);
          const slow = readAfterWrite(withPeerLatency(spec, level, hi), a, b, bytes);
          expect(slow).toBeGreaterThanOrEqual(fast * (1 - 1e-12));
        },
      ),
      { numRuns: 40 },
    );
  });

  it('a cache-to-cache latency equal to the hit latency changes nothing, and a longer one is paid', () => {
    for (const { spec, a, b, level } of cases) {
      const hit = spec.caches.find((c) => c.level === level && c.cores.includes(a))!.latencyNs;
      const base = readAfterWrite(withPeerLatency(spec, level, undefined), a, b, 4 * KiB);
      expect(readAfterWrite(withPeerLatency(spec, level, hit), a, b, 4 * KiB) / base, spec.name).toBeCloseTo(1, 9);
      expect(readAfterWrite(withPeerLatency(spec, level, hit + 100), a, b, 4 * KiB), spec.name).toBeGreaterThan(base);
    }
  });
});

/** Two cores of one package that share no cache (two core complexes, two tiles, two cores with
 *  L2s of their own), on presets where that package is the home of the memory they use: the
 *  presets whose memory sits behind a hub (Zoot's dies) take such lines from their owner instead
 *  (dirty-owners.test.ts). */
const apartInPackage = presets.flatMap((spec) => {
  const topo = new Topology(spec);
  for (const a of spec.cores)
    for (const b of spec.cores)
      if (
        a.id < b.id &&
        topo.coreVertex(a.id) === topo.coreVertex(b.id) &&
        topo.numa(a.numa).attach === topo.coreVertex(a.id) &&
        !topo.sharedCache(a.id, b.id)
      )
        return [{ spec, a: a.id, b: b.id }];
  return [];
});

describe('lines another cache of the home package holds', () => {
  it('come as a line passes between the two cores, not at that cache hit latency', () => {
    // Genoa's core complexes, KNL's tiles, the nUIOA Opterons' cores.
    expect(apartInPackage.map((c) => c.spec.name)).toEqual(
      expect.arrayContaining(['epyc-genoa', 'knl', 'opteron-nuioa']),
    );
    for (const { spec, a, b } of apartInPackage) {
      const topo = new Topology(spec);
      const sim = new Simulation({ seed: 'apart-in-package' });
      const node = new Node(sim, spec);
      // Twice the writer's private caches, so that where its outermost cache is a victim cache
      // (Genoa's L3) the stream's head has left them for it.
      const privates = topo.cachesOf(a).filter((c) => c.cores.length === 1);
      const bytes = Math.max(4 * KiB, 2 * Math.max(0, ...privates.map((c) => c.sizeBytes)));
      const home = spec.cores.find((c) => c.id === a)!.numa;
      const src = node.allocate('input', bytes, 0, home);
      const segment = node.allocate('segment', bytes, 1, home);
      const out = node.allocate('out', 4 * KiB, 2, home);
      sim.spawn('writer', node.copy(a, range(src), range(segment), { rank: 1, label: 'write' }));
      sim.run();
      // The reader's first line of the stream's head, which the writer's outermost cache holds.
      const head = range(segment, 0, 4 * KiB);
      const first = node.prepareCopy(b, head, range(out), { rank: 2, label: 'read' }).latency;
      expect(first, spec.name).toBe(topo.lineLatency(a, b));
      expect(first, spec.name).toBeGreaterThan(topo.cachesOf(a).at(-1)!.latencyNs);
    }
  });
});
