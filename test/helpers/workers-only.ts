// A CLI environment's `loadWorkers` that leaves every point to worker threads, started at once: on
// the small sweeps tests run, the command's own thread would otherwise take every point before a
// worker has loaded (scenarios/workers/point-pool.ts), and the worker path would go untested. The
// pool is closed when the command's last sweep ends, so no idle worker outlives the test.
import type { Point } from '../../scenarios/point.ts';
import type { PointBatchRunner, SettleOutcome } from '../../scenarios/run.ts';
import { PointPool } from '../../scenarios/workers/point-pool.ts';

const WORKERS_ONLY = { runHere: false, startWorkersAfterMs: 0 } as const;

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
