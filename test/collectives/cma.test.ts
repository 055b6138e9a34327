// The CMA collectives: every one delivers exactly what MPI requires on random machines,
// communicators, placements, roots, sizes and layouts (test/collectives/driver.ts), and the
// one-to-all broadcast shows the page-table lock contention that motivates the staggered designs
// (Hashmi et al., seed 001): its lock-wait share grows with the number of readers, and bounding the
// readers of one process cuts the waiting.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runAlgorithm } from '../../algorithms/harness/simulate.ts';
import { catalogue } from '../../algorithms/catalogue.ts';
import { loadPreset } from '../../hardware/presets.ts';
import { servingTree, waves } from '../../algorithms/collectives/cma/schedule.ts';
import { tinyMachine } from '../helpers/machines.ts';
import { propRuns } from '../helpers/prop-runs.ts';

describe('CMA collectives deliver what MPI requires', () => {
  it('registers the linear and staggered designs', () => {
    for (const op of ['bcast', 'scatter', 'scatterv', 'gather', 'gatherv', 'allgather', 'allgatherv']) {
      expect(catalogue.findAlgorithm(`${op}:cma-linear`)).toBeDefined();
      expect(catalogue.findAlgorithm(`${op}:cma-staggered`)?.params.map((p) => p.name)).toEqual(['concurrency']);
    }
    expect(catalogue.findAlgorithm('alltoall:cma-linear')).toBeDefined();
    expect(catalogue.findAlgorithm('alltoallv:cma-linear')).toBeDefined();
  });
  // Their data-correctness property runs with every catalogued algorithm's (properties.*.test.ts).
});

describe('staggered schedules', () => {
  it('the serving tree reaches every rank once, from a rank that already has the data, with at most `concurrency` readers per round', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 70 }), fc.nat(), fc.integer({ min: 1, max: 80 }), (n, r, c) => {
        const root = r % n;
        const tree = servingTree(n, root, c);
        const readAt = new Map<number, number>([[root, -1]]);
        // Serve round by round from the ranks that hold the data; a rank's rounds start after it received.
        const queue = [root];
        while (queue.length > 0) {
          const server = queue.shift()!;
          tree.rounds(server).forEach((readers) => {
            expect(readers.length).toBeLessThanOrEqual(c);
            for (const reader of readers) {
              expect(readAt.has(reader)).toBe(false);
              expect(tree.parent(reader)).toBe(server);
              readAt.set(reader, 0);
              queue.push(reader);
            }
          });
        }
        expect(readAt.size).toBe(n);
        expect(tree.parent(root)).toBeUndefined();
        if (c >= n - 1) expect(tree.rounds(root).length).toBe(n > 1 ? 1 : 0);
      }),
      { numRuns: propRuns(200) },
    );
  });

  it('waves keep order and size', () => {
    expect(waves([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(waves([], 3)).toEqual([]);
  });
});

describe('one-to-all CMA contention (seed 001)', () => {
  const lockShare = (algorithm: string, n: number, params: Record<string, number> = {}) => {
    const machine = loadPreset('broadwell'); // the seed's machine (2 x 14 cores)
    const out = runAlgorithm({
      machine,
      cores: Array.from({ length: n }, (_, i) => i),
      algorithm,
      call: { bytes: 1 << 20, root: 0, params },
      cache: 'off',
      iterations: 1,
      warmup: 0,
      seed: 'contention',
    });
    const total = Object.values(out.totals).reduce((a, b) => a + b, 0);
    return { wait: out.totals['lock-wait'] ?? 0, share: (out.totals['lock-wait'] ?? 0) / total };
  };

  it('the lock-wait share of the linear broadcast grows with the number of readers', () => {
    const shares = [2, 8, 28].map((n) => lockShare('bcast:cma-linear', n).share);
    expect(shares[0]).toBe(0); // a single reader never queues
    expect(shares[1]).toBeGreaterThan(shares[0]);
    expect(shares[2]).toBeGreaterThan(shares[1]);
  });

  it('the staggered broadcast waits less on the lock than the linear one', () => {
    const linear = lockShare('bcast:cma-linear', 28);
    const staggered = lockShare('bcast:cma-staggered', 28, { concurrency: 4 });
    expect(staggered.wait).toBeLessThan(linear.wait);
    expect(staggered.share).toBeLessThan(linear.share);
  });

  it('a concurrency below 1 is an error naming the parameter', () => {
    expect(() =>
      runAlgorithm({
        machine: tinyMachine(),
        cores: [0, 1, 2],
        algorithm: 'scatter:cma-staggered',
        call: { bytes: 64, root: 0, params: { concurrency: 0 } },
        cache: 'off',
        iterations: 1,
        warmup: 0,
        seed: 's',
      }),
    ).toThrow(/params\.concurrency must be a whole number, at least 1, got 0/);
  });

  it('a machine without CMA fails with the mechanism error, not a hang', () => {
    const machine = tinyMachine();
    machine.kernel.mechanisms.cma = false;
    expect(() =>
      runAlgorithm({
        machine,
        cores: [0, 1],
        algorithm: 'bcast:cma-linear',
        call: { bytes: 64, root: 0, params: {} },
        cache: 'off',
        iterations: 1,
        warmup: 0,
        seed: 's',
      }),
    ).toThrow(/process_vm_readv/);
  });
});
