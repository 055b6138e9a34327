// Runs one shard's points of a sweep and keeps their outcomes for `intranode merge`.
import { UnavailableError, type Point, type PointResult, type PointRunner } from '../point.ts';
import { outcomeOf, type PointBatchRunner, type PointOutcome, type ProgressListener } from '../run.ts';
import { shardIndices, type ShardSpec } from './select.ts';

/** One point's outcome as a shard file holds it: its result, or why it could not run (an n/a cell). */
export type ShardResult = { point: number; result: PointResult } | { point: number; unavailable: string };

/**
 * Runs the points of `points` that `shard` owns, one after another with `runner` or on workers with
 * `runBatch`. An error stops the shard as it stops the whole sweep (with `strict`, an unavailable
 * cell too); otherwise an unavailable cell is recorded, so merge prints it n/a as a single run does.
 */
export async function runShard(
  points: Point[],
  shard: ShardSpec,
  run: { runner: PointRunner } | { runBatch: PointBatchRunner },
  opts: { strict: boolean; onProgress?: ProgressListener },
): Promise<ShardResult[]> {
  const indices = shardIndices(points.length, shard);
  const results: ShardResult[] = [];
  const settle = (local: number, outcome: PointOutcome) => {
    results[local] = recorded(indices[local], outcome, opts.strict);
    opts.onProgress?.(local + 1, indices.length);
  };
  if ('runBatch' in run) {
    await run.runBatch(
      indices.map((i) => points[i]),
      settle,
    );
  } else {
    indices.forEach((i, local) => settle(local, outcomeOf(run.runner, points[i])));
  }
  return results;
}

function recorded(point: number, outcome: PointOutcome, strict: boolean): ShardResult {
  if (outcome.ok) return { point, result: outcome.result };
  const e = outcome.error;
  if (strict || !(e instanceof UnavailableError)) throw e;
  return { point, unavailable: e.detail };
}
