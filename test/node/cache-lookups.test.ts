// The lookups a copy's planning makes on every call, answered from tables built once: each must
// give what the plain definition gives, on every preset.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CacheState } from '../../sim/node/cache.ts';
import { bestSibling, siblingCachesByCore } from '../../sim/node/sibling-caches.ts';
import { highestLevels, outermostCaches, Topology } from '../../sim/node/topology.ts';
import { loadPreset, presetNames } from '../../hardware/presets.ts';
import type { CacheSpec, MachineSpec } from '../../hardware/spec.ts';

const specs = presetNames().map((name) => loadPreset(name));

/** The definitions the tables stand for, written the slow and obvious way. */
const plain = {
  outermost: (caches: readonly CacheSpec[]) =>
    caches.filter(
      (c) => !c.memorySide && !caches.some((o) => !o.memorySide && o.level > c.level && o.cores.includes(c.cores[0])),
    ),
  cachesOf: (spec: MachineSpec, core: number) =>
    spec.caches.filter((c) => !c.memorySide && c.cores.includes(core)).sort((a, b) => a.level - b.level),
  siblings: (spec: MachineSpec, core: number) => {
    const victim = spec.caches.find((c) => c.victim && !c.memorySide && c.cores.includes(core));
    if (victim === undefined) return undefined;
    return spec.caches.filter(
      (c) => !c.memorySide && !c.victim && !c.cores.includes(core) && c.cores.every((o) => victim.cores.includes(o)),
    );
  },
};

describe('lookups built once', () => {
  it('each core reads through the caches the plain filter gives, and the outermost are the same', () => {
    for (const spec of specs) {
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

  it('the highest level of a core is that of its outermost cache', () => {
    for (const spec of specs) {
      const highest = highestLevels(spec.caches.filter((c) => !c.memorySide));
      for (const core of spec.cores)
        expect(highest.get(core.id), spec.name).toBe(plain.cachesOf(spec, core.id).at(-1)?.level);
    }
  });

  it("each core's siblings behind a victim cache are those the plain filter gives", () => {
    for (const spec of specs) {
      const table = siblingCachesByCore(spec);
      for (const core of spec.cores)
        expect(
          table.get(core.id)?.siblings.map((c) => c.id),
          spec.name,
        ).toEqual(plain.siblings(spec, core.id)?.map((c) => c.id));
    }
  });

  it('the sibling holding most dirty bytes wins, the earlier on a tie, whichever list is walked', () => {
    const spec = specs.find((s) => s.caches.some((c) => c.victim))!;
    const entry = siblingCachesByCore(spec).get(spec.cores[0].id)!;
    const n = entry.siblings.length;
    expect(n).toBeGreaterThan(2);
    fc.assert(
      fc.property(
        // Dirty bytes per sibling (0: holds the buffer clean, undefined: holds none of it).
        fc.array(fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined }), { minLength: n, maxLength: n }),
        (dirty) => {
          const states = new Map(entry.siblings.map((c) => [c.id, new CacheState(c.id, 1 << 20)]));
          const holding = new Set<CacheState>();
          entry.siblings.forEach((c, i) => {
            const d = dirty[i];
            if (d === undefined) return;
            const state = states.get(c.id)!;
            state.touch(7, 0, 4 * 64, false);
            if (d > 0) state.touch(7, 0, d * 64, true);
            holding.add(state);
          });
          // The plain answer: the first sibling holding the most dirty bytes, none if none does.
          let want: { id: string; bytes: number } | undefined;
          entry.siblings.forEach((c, i) => {
            const bytes = (dirty[i] ?? 0) * 64;
            if (bytes > (want?.bytes ?? 0)) want = { id: c.id, bytes };
          });
          const got = bestSibling(entry, states, holding, 7, 0, 4 * 64);
          expect(got && { id: got.cache.id, bytes: got.bytes }).toEqual(want);
          // Walking the other list (a holding set larger than the siblings) gives the same.
          const padded = new Set([...holding, ...entry.siblings.map((c) => new CacheState(`x${c.id}`, 64))]);
          const again = bestSibling(entry, states, padded, 7, 0, 4 * 64);
          expect(again && { id: again.cache.id, bytes: again.bytes }).toEqual(want);
        },
      ),
    );
  });
});
