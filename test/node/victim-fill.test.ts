// A victim L3 receives what the private cache below it evicts, when the copy that evicts it ends
// (docs/model.md, "victim caches"): on every preset with one, over sizes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../sim/engine/simulation.ts';
import { Node } from '../../sim/node/node.ts';
import { range } from '../../sim/node/buffer.ts';
import { CacheState } from '../../sim/node/cache.ts';
import { loadPreset, presetNames } from '../../hardware/presets.ts';
import { propRuns } from '../helpers/prop-runs.ts';

const withVictim = presetNames()
  .map((name) => loadPreset(name))
  .filter((spec) => spec.caches.some((c) => c.victim));

describe('CacheState eviction reports', () => {
  it('reports the head of a range longer than the cache, then the LRU pieces it pushes out, oldest first', () => {
    const seen: Array<[number, number, number, boolean]> = [];
    const cache = new CacheState('c', 100);
    cache.touch(1, 0, 60, true);
    cache.touch(2, 0, 30);
    cache.touch(3, 0, 130, false, (buf, start, length, dirty) => seen.push([buf, start, length, dirty]));
    expect(seen).toEqual([
      [3, 0, 30, false],
      [1, 0, 60, true],
      [2, 0, 30, false],
    ]);
    expect(cache.residentBytes(3, 30, 100)).toBe(100);
  });
});

describe('victim caches', () => {
  it('exist on some presets (the properties below are not vacuous)', () => {
    expect(withVictim.length).toBeGreaterThan(0);
  });

  it("hold, after a warm copy, the source its own destination pushed out of L2; not before the copy's end", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: withVictim.length - 1 }), fc.integer({ min: 1, max: 8 }), (i, quarters) => {
        const spec = withVictim[i];
        const victim = spec.caches.find((c) => c.victim)!;
        const core = victim.cores[0];
        const below = Math.max(
          ...spec.caches.filter((c) => !c.victim && c.cores.includes(core)).map((c) => c.sizeBytes),
        );
        // Source and destination together overflow the L2 but fit in half the victim L3.
        const bytes = Math.min(below * 0.25 * (quarters + 4), victim.sizeBytes / 4);
        if (2 * bytes <= below) return;
        const sim = new Simulation({ seed: 'victim' });
        const node = new Node(sim, spec);
        const src = node.allocate('src', bytes, 0);
        const dst = node.allocate('dst', bytes, 0);
        const l3 = node.cache(victim.id);
        let during = -1;
        // A kernel copy: its stores allocate in the caches (a large memcpy may store around them).
        sim.spawn('copy', node.copy(core, range(src), range(dst), { rank: 0, label: 'copy', routine: 'kernel' }));
        sim.spawn(
          'look',
          (function* () {
            // Once the copy runs (its flow has started), before it ends.
            yield* sim.sleep(1);
            during = l3.residentBytes(src.id, 0, bytes);
          })(),
        );
        sim.run();
        expect(during).toBe(0);
        // The L2 kept the destination's tail: the whole source went to the victim L3.
        expect(l3.residentBytes(src.id, 0, bytes)).toBe(bytes);
      }),
      { numRuns: propRuns(20) },
    );
  });
});
