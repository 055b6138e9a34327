import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { propRuns } from '../helpers/prop-runs.ts';
import { maxMinAllocation, maxMinRates } from '../../sim/flow/maxmin.ts';
import { bottleneckViolation, closeTo, loads, maxMinViolation } from './checks.ts';
import { problemOf } from './problems.ts';

const problem = problemOf(8, 25);

describe('maxMinRates by hand', () => {
  it('weights of very different sizes on one resource: the small one gets what is left, exactly', () => {
    // R (capacity 1) carries A (weight 1), held to 0.5 by S, and B of weight w: B = 0.5 / w. The
    // running difference of R's unfrozen weight, 1 + w - 1, keeps few of w's bits (none at 1e-17).
    for (const w of [1e-9, 1e-13, 1e-17]) {
      const rates = maxMinRates(
        [1, 0.5],
        [
          {
            uses: [
              { resource: 0, weight: 1 },
              { resource: 1, weight: 1 },
            ],
          },
          { uses: [{ resource: 0, weight: w }] },
        ],
      );
      expect(rates[0]).toBe(0.5);
      expect(Math.abs(rates[1] * w - 0.5)).toBeLessThan(1e-12);
    }
    // Two flows frozen first, leaving a remainder that the difference would take below zero.
    const three = maxMinRates(
      [1, 0.5],
      [
        {
          uses: [
            { resource: 0, weight: 0.3 },
            { resource: 1, weight: 1 },
          ],
        },
        {
          uses: [
            { resource: 0, weight: 0.6 },
            { resource: 1, weight: 1 },
          ],
        },
        { uses: [{ resource: 0, weight: 1e-17 }] },
      ],
    );
    expect(three.slice(0, 2)).toEqual([0.25, 0.25]);
    expect(Math.abs(three[2] * 1e-17 - (1 - 0.25 * 0.9))).toBeLessThan(1e-12);
  });

  it('gives a lone flow the smallest capacity on its path', () => {
    expect(maxMinRates([10, 4, 7], [{ uses: [0, 1, 2].map((resource) => ({ resource, weight: 1 })) }])).toEqual([4]);
  });

  it('splits one resource evenly between two flows', () => {
    const one = { uses: [{ resource: 0, weight: 1 }] };
    expect(maxMinRates([10], [one, one])).toEqual([5, 5]);
  });

  it('gives a weight-2 flow the same rate but twice the share of capacity', () => {
    // 2r + r = 9, so both run at 3 and the heavy flow takes 6 of the 9.
    const rates = maxMinRates([9], [{ uses: [{ resource: 0, weight: 2 }] }, { uses: [{ resource: 0, weight: 1 }] }]);
    expect(rates).toEqual([3, 3]);
  });

  it('hands capacity freed by a bottlenecked flow to the others', () => {
    // Flow 0 is held to 1 by resource 1; flows 1 and 2 then share the remaining 9 of resource 0.
    const rates = maxMinRates(
      [10, 1],
      [
        {
          uses: [
            { resource: 0, weight: 1 },
            { resource: 1, weight: 1 },
          ],
        },
        { uses: [{ resource: 0, weight: 1 }] },
        { uses: [{ resource: 0, weight: 1 }] },
      ],
    );
    expect(rates).toEqual([1, 4.5, 4.5]);
  });

  it('names the resource that froze each flow', () => {
    // Same network as above: flow 0 froze on resource 1, the others on resource 0.
    const { bottlenecks } = maxMinAllocation(
      [10, 1],
      [
        {
          uses: [
            { resource: 0, weight: 1 },
            { resource: 1, weight: 1 },
          ],
        },
        { uses: [{ resource: 0, weight: 1 }] },
        { uses: [{ resource: 0, weight: 1 }] },
      ],
    );
    expect(bottlenecks).toEqual([1, 0, 0]);
  });

  it('on a tie between two saturated resources, names the first in resource order', () => {
    // Both resources saturate at rate 4, whichever order the flow lists them in.
    const uses = (first: number, second: number) => [
      { resource: first, weight: 1 },
      { resource: second, weight: 1 },
    ];
    expect(maxMinAllocation([4, 4], [{ uses: uses(0, 1) }]).bottlenecks).toEqual([0]);
    expect(maxMinAllocation([4, 4], [{ uses: uses(1, 0) }]).bottlenecks).toEqual([0]);
  });

  it('adds up the weights of a resource listed twice', () => {
    expect(
      maxMinRates(
        [6],
        [
          {
            uses: [
              { resource: 0, weight: 1 },
              { resource: 0, weight: 2 },
            ],
          },
        ],
      ),
    ).toEqual([2]);
  });

  it('ends with an unbounded rate where a weight so small that capacity over it overflows is all a flow has', () => {
    // The network rejects such a rate with the flow's name; the solver must still return.
    const rates = maxMinRates(
      [1, 1],
      [{ uses: [{ resource: 0, weight: 1 }] }, { uses: [{ resource: 1, weight: 5e-324 }] }],
    );
    expect(rates).toEqual([1, Infinity]);
  });

  it('rejects a flow with no resource, a bad weight and a bad capacity', () => {
    expect(() => maxMinRates([1], [{ uses: [] }])).toThrow(/uses no resource/);
    expect(() => maxMinRates([1], [{ uses: [{ resource: 0, weight: 0 }] }])).toThrow(/weight/);
    expect(() => maxMinRates([1], [{ uses: [{ resource: 3, weight: 1 }] }])).toThrow(/does not exist/);
    expect(() => maxMinRates([0], [])).toThrow(/capacity/);
  });
});

describe('maxMinRates properties', () => {
  it('never loads a resource above its capacity', () => {
    fc.assert(
      fc.property(problem, (p) => {
        const rates = maxMinRates(p.capacities, p.flows);
        loads(p, rates).forEach((l, r) => expect(l).toBeLessThanOrEqual(p.capacities[r] * (1 + 1e-9)));
      }),
      { numRuns: propRuns(500) },
    );
  });

  it('is max-min fair: every flow has a saturated bottleneck where no flow is faster', () => {
    fc.assert(
      fc.property(problem, (p) => {
        expect(maxMinViolation(p, maxMinRates(p.capacities, p.flows))).toBeUndefined();
      }),
      { numRuns: propRuns(500) },
    );
  });

  it('names for each flow a bottleneck that certifies its rate: saturated, and no flow there is faster', () => {
    fc.assert(
      fc.property(problem, (p) => {
        const { rates, bottlenecks } = maxMinAllocation(p.capacities, p.flows);
        expect(bottleneckViolation(p, rates, bottlenecks)).toBeUndefined();
      }),
      { numRuns: propRuns(500) },
    );
  });

  it('does not depend on the order flows are listed in', () => {
    fc.assert(
      fc.property(problem, (p) => {
        const rates = maxMinRates(p.capacities, p.flows);
        const reversed = maxMinRates(p.capacities, [...p.flows].reverse()).reverse();
        reversed.forEach((r, i) => expect(closeTo(r, rates[i]), `flow ${i}: ${r} vs ${rates[i]}`).toBe(true));
      }),
      { numRuns: propRuns(200) },
    );
  });
});
