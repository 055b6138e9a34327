// The solver's reused arrays and heap of levels against the plain rescanning solver: identical
// rates and bottlenecks, whatever was solved before in the same scratch.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { propRuns } from '../helpers/prop-runs.ts';
import { MaxMinScratch, solveMaxMinCsr, solveMaxMinGeneral, type CsrFlows } from '../../sim/flow/maxmin.ts';
import { LevelHeap } from '../../sim/flow/level-heap.ts';
import { scanMaxMinCsr } from './scan-maxmin.ts';
import type { Problem } from './checks.ts';
import { problemOf } from './problems.ts';

/** A problem, and per flow the index among its uses of its preferred bottleneck (or -1). */
interface Case extends Problem {
  preferred: number[];
}

const caseOf = (maxRes: number, maxFlows: number): fc.Arbitrary<Case> =>
  problemOf(maxRes, maxFlows).chain((p) =>
    fc
      .array(fc.integer({ min: -1, max: 3 }), { minLength: p.flows.length, maxLength: p.flows.length })
      .map((preferred) => ({ ...p, preferred })),
  );

function csrOf(c: Case): { g: CsrFlows; preferred: Int32Array } {
  const uses = c.flows.reduce((n, f) => n + f.uses.length, 0);
  const g = {
    flowCount: c.flows.length,
    flowStart: new Int32Array(c.flows.length + 1),
    useResource: new Int32Array(uses),
    useWeight: new Float64Array(uses),
  };
  const preferred = new Int32Array(c.flows.length);
  let k = 0;
  c.flows.forEach((f, i) => {
    g.flowStart[i] = k;
    for (const u of f.uses) {
      g.useResource[k] = u.resource;
      g.useWeight[k++] = u.weight;
    }
    // A preferred bottleneck is one of the flow's own resources, or none.
    const at = c.preferred[i];
    preferred[i] = at < 0 ? -1 : f.uses[at % f.uses.length].resource;
  });
  g.flowStart[c.flows.length] = k;
  return { g, preferred };
}

function scan(c: Case): { rates: number[]; bottlenecks: number[] } {
  const { g, preferred } = csrOf(c);
  const rates = scanMaxMinCsr(c.capacities, g, preferred);
  return { rates: Array.from(rates), bottlenecks: Array.from(preferred) };
}

function solve(c: Case, scratch: MaxMinScratch): { rates: number[]; bottlenecks: number[] } {
  const { g, preferred } = csrOf(c);
  const rates = solveMaxMinCsr(c.capacities, g, preferred, scratch);
  return { rates: Array.from(rates.subarray(0, c.flows.length)), bottlenecks: Array.from(preferred) };
}

describe('max-min solver with reused scratch and a heap of levels', () => {
  it('gives bit for bit the rates and bottlenecks of rescanning every resource each round', () => {
    fc.assert(
      fc.property(caseOf(10, 14), (c) => {
        expect(solve(c, new MaxMinScratch())).toEqual(scan(c));
      }),
      { numRuns: propRuns(1000) },
    );
  });

  it('gives the same answer in a scratch used by earlier solves, smaller or bigger, as in a fresh one', () => {
    fc.assert(
      fc.property(fc.array(caseOf(24, 30), { minLength: 2, maxLength: 8 }), (cases) => {
        const shared = new MaxMinScratch();
        for (const c of cases) expect(solve(c, shared)).toEqual(solve(c, new MaxMinScratch()));
      }),
      { numRuns: propRuns(200) },
    );
  });

  it('solves one flow that names each of its resources once, in order, as the general solve does, loads included', () => {
    // The network's part of one flow lists its resources in the flow's order: solveMaxMinCsr takes
    // a shortcut there, which must leave what the general solve leaves (rate, bottleneck, and the
    // frozen loads the network reads back), bit for bit, ties and preferred resources included.
    const oneFlow = fc.integer({ min: 1, max: 12 }).chain((n) =>
      fc.record({
        // What other flows leave of a resource, as the network passes it: at times nothing or less
        // (a part that must then fail), so zero and negative capacities too.
        capacities: fc.array(
          fc.oneof(
            fc.integer({ min: 1, max: 6 }),
            fc.double({ min: 0.01, max: 1000, noNaN: true }),
            fc.constantFrom(0, -0.5),
          ),
          {
            minLength: n,
            maxLength: n,
          },
        ),
        weights: fc.array(fc.oneof(fc.constantFrom(1, 2, 0.5, 3), fc.double({ min: 0.1, max: 10, noNaN: true })), {
          minLength: n,
          maxLength: n,
        }),
        preferred: fc.integer({ min: -1, max: n - 1 }),
        earlier: caseOf(24, 30),
      }),
    );
    fc.assert(
      fc.property(oneFlow, ({ capacities, weights, preferred, earlier }) => {
        const n = capacities.length;
        const g: CsrFlows = {
          flowCount: 1,
          flowStart: Int32Array.from([0, n]),
          useResource: Int32Array.from(capacities.map((_, k) => k)),
          useWeight: Float64Array.from(weights),
        };
        const run = (solver: typeof solveMaxMinCsr) => {
          // A scratch that solved something else first, as the network's has.
          const scratch = new MaxMinScratch();
          solve(earlier, scratch);
          const round = scratch.round;
          const bottleneck = Int32Array.from([preferred]);
          const rate = solver(capacities, g, bottleneck, scratch)[0];
          const result = { rate, bottleneck: bottleneck[0], loads: Array.from(scratch.frozenLoad.subarray(0, n)) };
          // The general solve numbers its rounds in the scratch; the shortcut has none, which
          // tells that it was the one taken.
          return { result, rounds: scratch.round - round };
        };
        const c: Case = {
          capacities,
          flows: [{ uses: weights.map((weight, resource) => ({ resource, weight })) }],
          preferred: [preferred],
        };
        const shortcut = run(solveMaxMinCsr);
        const general = run(solveMaxMinGeneral);
        expect(shortcut.rounds).toBe(0);
        expect(general.rounds).toBeGreaterThan(0);
        expect(shortcut.result).toEqual(general.result);
        if (capacities.every((x) => x > 0))
          expect({ rates: [shortcut.result.rate], bottlenecks: [shortcut.result.bottleneck] }).toEqual(scan(c));
      }),
      { numRuns: propRuns(1000) },
    );
  });

  it('does not allocate once its arrays are big enough', () => {
    const scratch = new MaxMinScratch();
    const c: Case = {
      capacities: [4, 6, 5],
      flows: [
        { uses: [{ resource: 0, weight: 1 }] },
        {
          uses: [
            { resource: 0, weight: 1 },
            { resource: 1, weight: 2 },
          ],
        },
        { uses: [{ resource: 2, weight: 1 }] },
      ],
      preferred: [-1, -1, -1],
    };
    solve(c, scratch);
    const rate = scratch.rate;
    const resFlow = scratch.resFlow;
    const levels = scratch.levelAt;
    solve(c, scratch);
    expect(scratch.rate).toBe(rate);
    expect(scratch.resFlow).toBe(resFlow);
    expect(scratch.levelAt).toBe(levels);
  });
});

describe('LevelHeap', () => {
  it('pops resources in ascending level after any pushes, removals and level changes', () => {
    const op = fc.oneof(
      fc.record({
        kind: fc.constant('push' as const),
        r: fc.nat(19),
        level: fc.double({ min: 0, max: 100, noNaN: true }),
      }),
      fc.record({ kind: fc.constant('remove' as const), r: fc.nat(19), level: fc.constant(0) }),
      fc.record({
        kind: fc.constant('update' as const),
        r: fc.nat(19),
        level: fc.double({ min: 0, max: 100, noNaN: true }),
      }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60, size: 'max' }), (ops) => {
        const key = new Float64Array(20);
        const heap = new LevelHeap();
        heap.reset(20, key);
        const inside = new Set<number>();
        for (const o of ops) {
          if (o.kind === 'push' && !inside.has(o.r)) {
            key[o.r] = o.level;
            heap.push(o.r);
            inside.add(o.r);
          } else if (o.kind === 'remove') {
            heap.remove(o.r);
            inside.delete(o.r);
          } else if (o.kind === 'update' && inside.has(o.r)) {
            key[o.r] = o.level;
            heap.update(o.r);
          }
        }
        expect(heap.size).toBe(inside.size);
        const popped: number[] = [];
        while (heap.size > 0) popped.push(key[heap.pop()]);
        expect(popped).toEqual([...inside].map((r) => key[r]).sort((a, b) => a - b));
        for (let r = 0; r < 20; r++) expect(heap.has(r)).toBe(false);
      }),
      { numRuns: propRuns(300) },
    );
  });
});
