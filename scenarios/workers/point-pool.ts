// Runs a sweep's points on several threads at once, this one and `jobs - 1` workers, and hands back
// their outcomes in the points' order, so what the caller builds from them does not depend on which
// thread was faster. Every thread claims the next point from one shared counter, so none waits for
// another to hand it work; this thread, whose simulator is already loaded and warm, starts at once.
// The workers outlive a sweep: a command that runs many (`reproduce`) loads and warms them once.
import { Worker } from 'node:worker_threads';
import type { Point } from '../point.ts';
import { outcomeOf, type PointOutcome, type SettleOutcome } from '../run.ts';
import { simulatePoint } from '../simulate-point.ts';
import type { PointReply, PointsOffer } from './point-worker.ts';
import { fromWire } from './wire-error.ts';

/** How long a sweep runs on this thread alone before workers are started for it (wall time: it
 *  changes only who computes a point, never its result). */
const ENLIST_AFTER_MS = 1000;

/** One sweep under way: its outcomes waiting for those before them, and how it ends. */
interface Sweep {
  id: number;
  record(index: number, outcome: PointOutcome): void;
  finish(failure?: { error: unknown }): void;
}

export interface PoolOptions {
  /** Wall time a sweep runs before workers are started for it (default ENLIST_AFTER_MS). */
  startWorkersAfterMs?: number;
  /** Whether this thread simulates points too (default true); false leaves them all to workers. */
  runHere?: boolean;
  /** How a worker thread is made (default: one running point-worker.ts); tests give their own. */
  newWorker?: () => Worker;
}

export class PointPool {
  private readonly workers: Worker[] = [];
  private current: Sweep | undefined;
  private sweeps = 0;
  private readonly startAfterMs: number;
  private readonly runHere: boolean;
  private readonly newWorker: () => Worker;
  /** How many points of the last sweep ran on this thread and on the workers. */
  private counts = { here: 0, workers: 0 };
  /** A worker that failed between sweeps fails the next one, as it would have failed the sweep it
   *  came too late for: a failure is not lost because no sweep was running. */
  private broken: unknown;

  constructor(
    private readonly jobs: number,
    options: PoolOptions = {},
  ) {
    this.startAfterMs = options.startWorkersAfterMs ?? ENLIST_AFTER_MS;
    this.runHere = options.runHere ?? true;
    this.newWorker = options.newWorker ?? workerThread;
  }

  /**
   * Simulates `points`. `settle` sees each outcome in index order; when it throws (the first error of
   * the sweep, in order), the sweep stops and the promise rejects with that error, as the same
   * sweep run in-process would stop there. One sweep at a time.
   */
  async run(points: Point[], settle: SettleOutcome): Promise<void> {
    if (this.current) throw new Error('PointPool.run: a sweep is already running');
    if (this.broken !== undefined) {
      const error: unknown = this.broken;
      this.broken = undefined;
      throw error;
    }
    this.counts = { here: 0, workers: 0 };
    const failure = await this.sweep(points, settle);
    // Exactly what settle threw, as runScenario would throw it.
    if (failure !== undefined) throw failure.error;
  }

  /** How many points of the last sweep this thread and the workers ran. */
  lastSweep(): { here: number; workers: number } {
    return { ...this.counts };
  }

  /** The thread ids of the workers the pool keeps. */
  workerIds(): number[] {
    return this.workers.map((w) => w.threadId);
  }

  /** Stops every worker (a pool left alone does not keep the process alive). */
  async close(): Promise<void> {
    await Promise.all(this.workers.splice(0).map((w) => w.terminate()));
  }

  private sweep(points: Point[], settle: SettleOutcome): Promise<{ error: unknown } | undefined> {
    return new Promise((resolve) => {
      // The index of the next point no thread has taken yet.
      const next = new Int32Array(new SharedArrayBuffer(4));
      const outcomes = new Map<number, PointOutcome>();
      let nextToSettle = 0;
      let enlisting: ReturnType<typeof setTimeout> | undefined;
      const sweep: Sweep = {
        id: ++this.sweeps,
        record: (index, outcome) => {
          if (this.current !== sweep) return;
          outcomes.set(index, outcome);
          try {
            for (let o = outcomes.get(nextToSettle); o !== undefined; o = outcomes.get(nextToSettle)) {
              outcomes.delete(nextToSettle);
              settle(nextToSettle++, o);
            }
          } catch (error) {
            sweep.finish({ error });
            return;
          }
          if (nextToSettle === points.length) sweep.finish();
        },
        finish: (failure) => {
          if (this.current !== sweep) return;
          this.current = undefined;
          clearTimeout(enlisting);
          // No thread takes another point.
          Atomics.store(next, 0, points.length);
          // A failed sweep may leave workers in the middle of a point: they go. Idle ones stay,
          // without keeping the process alive.
          if (failure) void this.close();
          else for (const w of this.workers) w.unref();
          resolve(failure);
        },
      };
      this.current = sweep;
      if (points.length === 0) return sweep.finish();
      // Workers besides this thread, when it takes points too.
      const helpers = Math.min(this.jobs, points.length) - (this.runHere ? 1 : 0);
      const enlist = () => {
        if (this.current !== sweep || Atomics.load(next, 0) >= points.length) return;
        try {
          while (this.workers.length < helpers) this.workers.push(this.startWorker());
          const offer: PointsOffer = { sweep: sweep.id, points, next: next.buffer };
          for (const w of this.workers.slice(0, helpers)) {
            w.ref();
            w.postMessage(offer);
          }
        } catch (error) {
          sweep.finish({ error });
        }
      };
      // A worker costs a second or more of loading and warming up, more than a short sweep takes
      // here alone: new workers join a sweep only once it has run a while. Warm ones join at once.
      if (this.workers.length >= helpers || this.startAfterMs === 0) enlist();
      else if (helpers > 0) enlisting = setTimeout(enlist, this.startAfterMs);
      // This thread takes one point at a time and lets the workers' replies in between.
      const takeHere = () => {
        if (!this.runHere) return;
        const index = Atomics.add(next, 0, 1);
        if (index >= points.length) return;
        this.counts.here++;
        sweep.record(index, outcomeOf(simulatePoint, points[index]));
        setImmediate(takeHere);
      };
      takeHere();
    });
  }

  private startWorker(): Worker {
    const w = this.newWorker();
    w.on('message', (reply: PointReply) => {
      if (reply.sweep !== this.current?.id) return;
      this.counts.workers++;
      this.current.record(
        reply.index,
        'result' in reply ? { ok: true, result: reply.result } : { ok: false, error: fromWire(reply.error) },
      );
    });
    // A worker that fails (an error, or an exit the pool did not ask for) leaves the pool and fails
    // the sweep under way, or the next one if none is.
    // ('error' comes before 'exit': the first of the two reports.)
    const leave = (error: unknown) => {
      const i = this.workers.indexOf(w);
      if (i < 0) return; // closed by the pool, or gone already
      this.workers.splice(i, 1);
      if (this.current) this.current.finish({ error });
      else this.broken ??= error;
    };
    w.on('error', leave);
    w.on('exit', (code) => leave(new Error(`a worker thread exited (code ${code}) before the sweep ended`)));
    return w;
  }
}

/** Runs one sweep on a pool of its own, closed when the sweep ends. */
export async function runPointsInWorkers(
  points: Point[],
  jobs: number,
  settle: SettleOutcome,
  options: PoolOptions = {},
): Promise<void> {
  const pool = new PointPool(jobs, options);
  try {
    await pool.run(points, settle);
  } finally {
    await pool.close();
  }
}

/** A worker runs the same form of the code as this module: the build's .js, or the .ts sources through tsx. */
function workerThread(): Worker {
  const self = import.meta.url;
  if (!self.endsWith('.ts')) return new Worker(new URL('./point-worker.js', self));
  return new Worker(new URL('./tsx-bootstrap.mjs', self), {
    workerData: { entry: new URL('./point-worker.ts', self).href },
  });
}
