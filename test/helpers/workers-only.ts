// A CLI environment's `loadWorkers` that leaves every point to worker threads, started at once: on
// the small sweeps tests run, the command's own thread would otherwise take every point before a
// worker has loaded (scenarios/workers/point-pool.ts), and the worker path would go untested. The
// pool is closed when the command's last sweep ends, so no idle worker outlives the test.
//
// The workers run the current build of these sources (bin/build.mjs), when there is one: the same
// modules compiled by the same esbuild as tsx compiles them, but loaded without compiling, in about a
// quarter of the CPU time; a file of tests that start a few pools each saves seconds. Where the
// sources changed since the last build, they run through tsx, as the pool's own default does (which
// point-pool.test.ts keeps testing).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { currentBuild, markInUse } from '../../bin/build.mjs';
import type { Point } from '../../scenarios/point.ts';
import type { PointBatchRunner, SettleOutcome } from '../../scenarios/run.ts';
import { PointPool, type PoolOptions } from '../../scenarios/workers/point-pool.ts';

/**
 * A worker thread of the current build, or undefined (the pool's default) where there is none, or
 * where the sources could not be fingerprinted (a file gone between listing and reading). The build
 * is marked in use by this process, as the launcher marks it, so that a build of edited sources
 * made meanwhile does not delete it under the workers still to start.
 */
function builtWorker(): (() => Worker) | undefined {
  let build: ReturnType<typeof currentBuild>;
  try {
    build = currentBuild();
  } catch {
    return undefined;
  }
  if (!build.ready) return undefined;
  const entry = pathToFileURL(join(markInUse(build.dir), 'scenarios', 'workers', 'point-worker.js'));
  return () => new Worker(entry);
}

/** Every point to workers, started at once, from the current build where there is one. */
export const WORKERS_ONLY: PoolOptions = { runHere: false, startWorkersAfterMs: 0, newWorker: builtWorker() };

export async function loadWorkersOnly(jobs: number): Promise<PointBatchRunner> {
  const pool = new PointPool(jobs, WORKERS_ONLY);
  // Closed after each sweep: a command of several sweeps (reproduce) starts its workers again.
  return (points: Point[], settle: SettleOutcome) => pool.run(points, settle).finally(() => pool.close());
}

/**
 * The same, with one pool per number of jobs kept for every command of a test file until `close`
 * (the file's afterAll): as the CLI keeps its workers from one sweep to the next, so a file of many
 * small commands does not start two worker threads per command. The pool's own lifecycle is tested
 * in point-pool.test.ts.
 */
export function keptWorkersOnly(): {
  loadWorkers: (jobs: number) => Promise<PointBatchRunner>;
  close: () => Promise<void>;
} {
  const pools = new Map<number, PointPool>();
  return {
    loadWorkers: async (jobs) => {
      let pool = pools.get(jobs);
      if (pool === undefined) {
        pool = new PointPool(jobs, WORKERS_ONLY);
        pools.set(jobs, pool);
      }
      const kept = pool;
      return (points: Point[], settle: SettleOutcome) => kept.run(points, settle);
    },
    close: async () => {
      await Promise.all([...pools.values()].map((p) => p.close()));
      pools.clear();
    },
  };
}
