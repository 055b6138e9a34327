// A CLI environment's `loadWorkers` that leaves every point to worker threads, started at once: on
// the small sweeps tests run, the command's own thread would otherwise take every point before a
// worker has loaded (scenarios/workers/point-pool.ts), and the worker path would go untested. The
// pool is closed when the command's last sweep ends, so no idle worker outlives the test.
import type { Point } from '../../scenarios/point.ts';
import type { PointBatchRunner, SettleOutcome } from '../../scenarios/run.ts';
import { PointPool } from '../../scenarios/workers/point-pool.ts';

export async function loadWorkersOnly(jobs: number): Promise<PointBatchRunner> {
  const pool = new PointPool(jobs, { runHere: false, startWorkersAfterMs: 0 });
  // Closed after each sweep: a command of several sweeps (reproduce) starts its workers again.
  return (points: Point[], settle: SettleOutcome) => pool.run(points, settle).finally(() => pool.close());
}
