// The data-correctness property (driver.ts) over every catalogued collective algorithm, drawn as
// its definition's test hints say. The algorithms are spread over properties.<k>.test.ts so that
// vitest runs them in parallel.
import { describe, it } from 'vitest';
import { checkAlgorithmProperty, propertyPlans, shardOf } from './driver.ts';

export const SHARDS = 4;

export function describePropertyShard(k: number): void {
  describe(`every catalogued collective algorithm delivers MPI semantics (part ${k + 1} of ${SHARDS})`, () => {
    for (const plan of shardOf(propertyPlans(), k, SHARDS)) {
      it(plan.title, () => checkAlgorithmProperty(plan.algorithm, plan.opts));
    }
  });
}
