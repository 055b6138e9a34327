// Random max-min problems for property tests: a few resources, flows crossing 1-4 of them with
// weights that are often small integers, so that exact ties between resources are common.

import fc from 'fast-check';
import type { Problem } from './checks.ts';

export const problemOf = (maxRes: number, maxFlows: number): fc.Arbitrary<Problem> =>
  fc.integer({ min: 1, max: maxRes }).chain((nRes) =>
    fc.record({
      capacities: fc.array(
        fc.oneof(fc.integer({ min: 1, max: 40 }), fc.double({ min: 0.01, max: 1000, noNaN: true })),
        {
          minLength: nRes,
          maxLength: nRes,
        },
      ),
      flows: fc.array(
        fc.record({
          uses: fc.array(
            fc.record({
              resource: fc.integer({ min: 0, max: nRes - 1 }),
              weight: fc.oneof(fc.constantFrom(1, 2, 0.5, 3), fc.double({ min: 0.1, max: 10, noNaN: true })),
            }),
            { minLength: 1, maxLength: 4 },
          ),
        }),
        // Any count up to maxFlows: fast-check's default size would keep it near 10, below the
        // 16 flows the solver's reused arrays first hold, so they would never grow.
        { maxLength: maxFlows, size: 'max' },
      ),
    }),
  );
