// The sm family: Graham and Shipman's shared-memory fan-in/fan-out delivers MPI semantics for
// every fragment size, tree degree and slot count; the tree is coll/sm's; data really passes
// through the per-rank segments, fragment by fragment.
import { describe, expect, it } from 'vitest';
import { tinyMachine } from '../helpers/machines.ts';
import { runAlgorithm } from '../../algorithms/harness/simulate.ts';
import type { ParamValue } from '../../algorithms/algorithm.ts';
import { smTree } from '../../algorithms/collectives/sm/tree.ts';

// Every sm algorithm's data-correctness property runs with every catalogued algorithm's
// (properties.*.test.ts), drawn as sm/index.ts says.

describe('sm: the fixed-degree tree of coll_sm_module.c', () => {
  it('node v has children v*d+1..v*d+d and parent (v-1)/d, on ranks shifted by the root', () => {
    expect(smTree(0, 0, 10, 4)).toEqual({ parent: -1, children: [1, 2, 3, 4] });
    expect(smTree(1, 0, 10, 4)).toEqual({ parent: 0, children: [5, 6, 7, 8] });
    expect(smTree(2, 0, 10, 4)).toEqual({ parent: 0, children: [9] });
    // Root 7 of 10: shifted rank 1 is rank 8, its children shifted 5..8 are ranks 2..5.
    expect(smTree(8, 7, 10, 4)).toEqual({ parent: 7, children: [2, 3, 4, 5] });
  });

  it('every rank is reached exactly once, with at most d children', () => {
    for (let n = 1; n <= 64; n++) {
      for (const d of [1, 2, 4, 7]) {
        const root = n > 3 ? 3 : 0;
        const seen = new Set([root]);
        const stack = [root];
        while (stack.length > 0) {
          const r = stack.pop()!;
          const { children } = smTree(r, root, n, d);
          expect(children.length).toBeLessThanOrEqual(d);
          for (const c of children) {
            expect(smTree(c, root, n, d).parent).toBe(r);
            expect(seen.has(c)).toBe(false);
            seen.add(c);
            stack.push(c);
          }
        }
        expect(seen.size).toBe(n);
      }
    }
  });
});

describe('sm: fragments go through the segments', () => {
  const machine = tinyMachine({ packages: 2, coresPerPackage: 4 });
  const run = (algorithm: string, n: number, bytes: number, p: Record<string, ParamValue>) =>
    runAlgorithm({
      machine,
      cores: Array.from({ length: n }, (_, i) => i),
      algorithm,
      call: { bytes, root: 0, params: p },
      cache: 'off',
      iterations: 1,
      warmup: 0,
      seed: 's',
      keepTrace: true,
    });
  const count = (events: Array<{ label: string }>, label: string) => events.filter((e) => e.label === label).length;

  it('bcast: the root copies each fragment in once, interior ranks forward it, every rank copies it out', () => {
    // 7 ranks, degree 2: root 0; interior 1, 2; leaves 3..6. 10 KiB in 4 KiB fragments: F = 3.
    const { events } = run('bcast:sm', 7, 10 * 1024, { segsize: 4096, degree: 2, slots: 2 });
    expect(count(events, 'sm copy-in')).toBe(3);
    expect(count(events, 'sm forward')).toBe(2 * 3);
    expect(count(events, 'sm copy-out')).toBe(6 * 3);
  });

  it("reduce: each non-root rank stages each fragment, each parent folds in each child's", () => {
    const { events } = run('reduce:sm', 7, 10 * 1024, { segsize: 4096, degree: 2, slots: 2 });
    expect(count(events, 'sm copy-in')).toBe(7 * 3);
    expect(events.filter((e) => e.label.startsWith('reduce')).length).toBe(6 * 3);
  });

  it('a fragment size of 0 or a degree of 0 names the parameter', () => {
    expect(() => run('bcast:sm', 4, 100, { segsize: 0 })).toThrow(
      /bcast:sm: params\.segsize must be an integer >= 1, got 0/,
    );
    expect(() => run('barrier:sm', 4, 0, { degree: 0 })).toThrow(/barrier:sm: params\.degree must be an integer >= 1/);
    expect(() => run('allreduce:sm', 4, 100, { slots: 0.5 })).toThrow(/params\.slots/);
  });
});
