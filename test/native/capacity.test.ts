import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { NativeStats } from '../../native-validate/backend.ts';
import { effectiveCapacity, fastestChases } from '../../native-validate/fit/capacity.ts';
import { measureInRounds } from '../../native-validate/rounds.ts';
import { steadyStats } from '../helpers/native-stats.ts';

const MiB = 1 << 20;
const chase = (bytes: number, ns: number): NativeStats => steadyStats(bytes, ns);

/** Chases of 2..size MiB of a cache that holds `held` bytes of ours: hit share held / w beyond it. */
function sweep(held: number, size: number, cacheNs: number, memoryNs: number) {
  const results: NativeStats[] = [];
  for (let w = 2 * MiB; w <= size; w *= 2) {
    const hit = Math.min(1, held / w);
    results.push(chase(w, hit * cacheNs + (1 - hit) * memoryNs));
  }
  return { results, memory: chase(128 * MiB, memoryNs) };
}

describe('the capacity of the outermost cache a process gets', () => {
  it('recovers what a cache shared with other work holds of ours', () => {
    fc.assert(
      fc.property(
        // From the smallest working set swept (2 MiB), which must sit wholly in the cache (it gives
        // the cache's own latency), to less than half the cache's size.
        fc.integer({ min: 8, max: 127 }),
        fc.double({ min: 8, max: 40, noNaN: true }),
        fc.double({ min: 80, max: 200, noNaN: true }),
        (quarters, cacheNs, memoryNs) => {
          const held = (quarters * MiB) / 4;
          const found = effectiveCapacity(sweep(held, 64 * MiB, cacheNs, memoryNs), 64 * MiB);
          expect(found).toBeDefined();
          // Exact but for the rounding to 256 KiB (the estimate inverts the model the sweep was made with).
          expect(Math.abs(found!.bytes - held)).toBeLessThanOrEqual(128 * 1024);
          expect(found!.source).toMatch(/^measured: pointer chase by working set/);
        },
      ),
    );
  });

  it('leaves a cache that holds every swept working set as it is', () => {
    expect(effectiveCapacity(sweep(64 * MiB, 32 * MiB, 15, 150), 32 * MiB)).toBeUndefined();
  });

  it('leaves a cache that holds at least half of its size for us as it is', () => {
    // A dedicated cache chased over its whole size misses some lines too (associativity,
    // replacement): only a loss to half the size or less is read as a share taken by other work.
    fc.assert(
      fc.property(fc.integer({ min: 129, max: 256 }), (quarters) => {
        expect(effectiveCapacity(sweep((quarters * MiB) / 4, 64 * MiB, 15, 150), 64 * MiB)).toBeUndefined();
      }),
    );
  });

  it('says nothing when memory is no slower than the cache (nothing to tell them apart)', () => {
    expect(effectiveCapacity(sweep(4 * MiB, 32 * MiB, 100, 100), 32 * MiB)).toBeUndefined();
  });

  it('reads the development host as holding about 4 MiB of its 32 MiB', () => {
    // The sweep calibration measured there: 2 MiB 13.4 ns, 4 MiB 15.2, 8 MiB 76.8, 16 MiB 117.7,
    // 32 MiB 137.3; memory 151.1 ns.
    const measured = {
      results: [
        chase(2 * MiB, 13.4),
        chase(4 * MiB, 15.2),
        chase(8 * MiB, 76.8),
        chase(16 * MiB, 117.7),
        chase(32 * MiB, 137.3),
      ],
      memory: chase(128 * MiB, 151.1),
    };
    expect(effectiveCapacity(measured, 32 * MiB)?.bytes).toBe(4.25 * MiB);
  });

  it('takes each working set at its fastest chase: the most of the cache other work left us', () => {
    // A first chase while other work held most of a 32 MiB cache, then three rounds in which it held
    // less and less: each working set counts with its fastest chase, the capacity is the largest share.
    const held = [2, 3, 6, 4].map((m) => m * MiB);
    const chases = held.map((h) => sweep(h, 32 * MiB, 15, 150));
    const flat = (s: ReturnType<typeof sweep>) => [...s.results, s.memory];
    const again = measureInRounds(3, [0], (_, round) => flat(chases[round + 1]))[0];
    const all = fastestChases(flat(chases[0]), again);
    const found = effectiveCapacity({ results: all.slice(0, -1), memory: all[all.length - 1] }, 32 * MiB);
    expect(found?.bytes).toBe(6 * MiB);
    // Every chase's median stands beside the fastest, and the machine file's source says how many.
    expect(all[2].roundMediansNs).toEqual(chases.map((c) => c.results[2].medianNs));
    expect(found?.source).toMatch(
      /^measured: pointer chase by working set \(fastest of 20, each working set's fastest of 4 chases\)/,
    );
    // The first chase alone reads the share other work left at that moment.
    expect(effectiveCapacity(chases[0], 32 * MiB)?.bytes).toBe(2 * MiB);
  });
});
