// Runs a sweep's points on worker threads, several at once, and hands back their outcomes in the
// points' order, so what the caller builds from them does not depend on which worker was faster.
import { Worker } from 'node:worker_threads';
import type { Point } from '../point.ts';
import type { PointOutcome, SettleOutcome } from '../run.ts';
import type { PointReply, PointRequest } from './point-worker.ts';
import { fromWire } from './wire-error.ts';

/**
 * Simulates `points` on up to `jobs` worker threads. `settle` sees each outcome in index order; when
 * it throws (the first error of the sweep, in order), the workers stop and the promise rejects with
 * that error, as the same sweep run in-process would stop there.
 */
export async function runPointsInWorkers(points: Point[], jobs: number, settle: SettleOutcome): Promise<void> {
  const failure = await runUntilDoneOrFailed(points, jobs, settle);
  // Exactly what settle threw, as runScenario would throw it.
  if (failure !== undefined) throw failure.error;
}

function runUntilDoneOrFailed(
  points: Point[],
  jobs: number,
  settle: SettleOutcome,
): Promise<{ error: unknown } | undefined> {
  return new Promise((resolve) => {
    const outcomes = new Map<number, PointOutcome>();
    const workers: Worker[] = [];
    let nextToSend = 0;
    let nextToSettle = 0;
    let finished = false;
    const finish = (failure?: { error: unknown }) => {
      if (finished) return;
      finished = true;
      for (const w of workers) void w.terminate();
      resolve(failure);
    };
    const feed = (w: Worker) => {
      if (nextToSend >= points.length) return;
      const request: PointRequest = { index: nextToSend, point: points[nextToSend] };
      nextToSend++;
      w.postMessage(request);
    };
    const drain = () => {
      for (let o = outcomes.get(nextToSettle); o !== undefined; o = outcomes.get(nextToSettle)) {
        outcomes.delete(nextToSettle);
        settle(nextToSettle++, o);
      }
      if (nextToSettle === points.length) finish();
    };
    const onReply = (w: Worker, reply: PointReply) => {
      outcomes.set(
        reply.index,
        'result' in reply ? { ok: true, result: reply.result } : { ok: false, error: fromWire(reply.error) },
      );
      try {
        feed(w);
        drain();
      } catch (error) {
        finish({ error });
      }
    };
    if (points.length === 0) finish();
    try {
      for (let i = 0; i < Math.min(jobs, points.length); i++) {
        const w = startWorker();
        workers.push(w);
        w.on('message', (reply: PointReply) => onReply(w, reply));
        w.on('error', (error) => finish({ error }));
        w.on('exit', (code) =>
          finish({ error: new Error(`a worker thread exited (code ${code}) before the sweep ended`) }),
        );
        feed(w);
      }
    } catch (error) {
      finish({ error });
    }
  });
}

/** A worker runs the same form of the code as this module: the build's .js, or the .ts sources through tsx. */
function startWorker(): Worker {
  const self = import.meta.url;
  if (!self.endsWith('.ts')) return new Worker(new URL('./point-worker.js', self));
  return new Worker(new URL('./tsx-bootstrap.mjs', self), {
    workerData: { entry: new URL('./point-worker.ts', self).href },
  });
}
