import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { NativeStats } from '../../native-validate/backend.ts';
import { capacityOverChases, effectiveCapacity } from '../../native-validate/fit/capacity.ts';
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

  it('takes each working set at its fastest load over the chases: the most of the cache other work left us', () => {
    // As training chases: a first chase of the working sets and memory, then three rounds of the
    // working sets alone, while other work held 2, then 3, 6 and 4 MiB of a 32 MiB cache for us.
    const held = [2, 3, 6, 4].map((m) => m * MiB);
    const chases = held.map((h) => sweep(h, 32 * MiB, 15, 150));
    const first = [...chases[0].results, chases[0].memory];
    const again = measureInRounds(3, [0], (_, round) => chases[round + 1].results)[0];
    const over = capacityOverChases(first, again, 32 * MiB);
    expect(over.found?.bytes).toBe(6 * MiB);
    // Every chase's median stands beside the fastest, and the machine file's source says how many.
    expect(over.sweep.results[2].roundMediansNs).toEqual(chases.map((c) => c.results[2].medianNs));
    expect(over.found?.source).toMatch(
      /^measured: pointer chase by working set \(fastest of 20, each working set's fastest of 4 chases\)/,
    );
    // The first chase alone reads the share other work left at that moment.
    expect(effectiveCapacity(chases[0], 32 * MiB)?.bytes).toBe(2 * MiB);
  });

  it('reads the fastest load, not the fastest median, and never less than the first chase', () => {
    const first = [...sweep(4 * MiB, 32 * MiB, 15, 150).results, chase(128 * MiB, 150)];
    // A round whose median is lower but whose fastest load is higher, at every working set: the
    // capacity reads the fastest load, so the first chase's loads stand.
    const again = sweep(2 * MiB, 32 * MiB, 15, 150).results.map((r, k) => ({
      ...r,
      medianNs: first[k].medianNs - 1,
      minNs: first[k].minNs + 1,
    }));
    expect(capacityOverChases(first, again, 32 * MiB).found?.bytes).toBe(4 * MiB);
    // And the other way: a round of slower medians whose fastest loads held 6 MiB counts with them.
    const quick = sweep(6 * MiB, 32 * MiB, 15, 150).results.map((r, k) => ({ ...r, medianNs: first[k].medianNs + 50 }));
    expect(capacityOverChases(first, quick, 32 * MiB).found?.bytes).toBe(6 * MiB);
    // A round whose smallest working set loads faster lowers the cache latency the estimate uses, and
    // with it the share it reads: the first chase's share, which sized the level probes, is kept.
    const faster = first.slice(0, -1).map((r, k) => (k === 0 ? { ...r, minNs: 5, medianNs: 5 } : r));
    const over = capacityOverChases(first, faster, 32 * MiB);
    expect(effectiveCapacity({ results: faster, memory: first[first.length - 1] }, 32 * MiB)!.bytes).toBeLessThan(
      4 * MiB,
    );
    expect(over.found?.bytes).toBe(4 * MiB);
    expect(over.sweep.results).toEqual(first.slice(0, -1));
    // No loss in any chase: the whole cache (no capacity found).
    const whole = [...sweep(64 * MiB, 32 * MiB, 15, 150).results, chase(128 * MiB, 150)];
    expect(capacityOverChases(whole, whole.slice(0, -1), 32 * MiB).found).toBeUndefined();
  });

  it("refuses rounds' chases that are not the first chase's working sets", () => {
    const first = [...sweep(4 * MiB, 32 * MiB, 15, 150).results, chase(128 * MiB, 150)];
    expect(() => capacityOverChases(first, first, 32 * MiB)).toThrow(/not the first chase's working sets/);
    expect(() => capacityOverChases(first, [...first.slice(1, -1), first[0]], 32 * MiB)).toThrow(
      /not the first chase's working sets/,
    );
  });
});
