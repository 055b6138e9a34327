// The worker pool on its own: points cross to the workers as plain data, outcomes come back in the
// points' order, and an internal error thrown in a worker keeps its class name, message and stack.
// Most cases leave every point to the workers (runHere: false), so that the workers do run them:
// on a sweep this small this thread would otherwise take them all before a worker has loaded.
// Those workers run the current build where there is one (test/helpers/workers-only.ts); the case
// with this thread beside a worker starts the pool's own, which compiles the sources through tsx.
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { catalogue } from '../../algorithms/catalogue.ts';
import { resolveMachine } from '../../hardware/index.ts';
import { expandScenario } from '../../scenarios/expand.ts';
import { loadScenarioText } from '../../scenarios/loader.ts';
import type { Point } from '../../scenarios/point.ts';
import type { PointOutcome } from '../../scenarios/run.ts';
import { simulatePoint } from '../../scenarios/simulate-point.ts';
import { PointPool, runPointsInWorkers } from '../../scenarios/workers/point-pool.ts';
import { WORKERS_ONLY } from '../helpers/workers-only.ts';

const scenario = loadScenarioText(
  `name: pool
ranks: 4
sweep:
  machine: [broadwell, ig]
operation: allreduce
algorithms: [basic, ring]
sizes: [1KiB, 8KiB]
`,
  { resolveMachine: (ref) => resolveMachine(ref), catalogue },
);
const points: Point[] = expandScenario(scenario).flatMap((t) => t.rows.flatMap((r) => r.cells.map((c) => c.point)));

async function inWorkers(
  list: Point[],
  jobs: number,
  options = WORKERS_ONLY,
): Promise<{ order: number[]; outcomes: PointOutcome[] }> {
  const order: number[] = [];
  const outcomes: PointOutcome[] = [];
  await runPointsInWorkers(
    list,
    jobs,
    (index, outcome) => {
      order.push(index);
      outcomes.push(outcome);
    },
    options,
  );
  return { order, outcomes };
}

describe('runPointsInWorkers', () => {
  it('sends points that survive structured cloning unchanged', () => {
    expect(points.length).toBe(8);
    for (const p of points) expect(structuredClone(p)).toStrictEqual(p);
  });

  it('settles every point in order with the result simulatePoint gives in this thread', async () => {
    const { order, outcomes } = await inWorkers(points, 3);
    expect(order).toEqual(points.map((_, i) => i));
    expect(outcomes).toStrictEqual(points.map((p) => ({ ok: true, result: simulatePoint(p) })));
  }, 60_000);

  it('settles the same outcomes in order when this thread takes points beside a worker', async () => {
    const pool = new PointPool(2, { startWorkersAfterMs: 0 });
    try {
      // A first sweep starts the worker (this thread may well run all of it alone while the worker
      // loads); the second, ten times longer, begins a second later, and the worker, loaded by then
      // or soon after, takes its share while this thread takes the rest.
      await pool.run(points, () => undefined);
      await new Promise((done) => setTimeout(done, 1000));
      const many = Array.from({ length: 10 }, () => points).flat();
      const order: number[] = [];
      const outcomes: PointOutcome[] = [];
      await pool.run(many, (index, outcome) => {
        order.push(index);
        outcomes.push(outcome);
      });
      expect(order).toEqual(many.map((_, i) => i));
      const expected = points.map((p) => ({ ok: true, result: simulatePoint(p) }));
      expect(outcomes).toStrictEqual(Array.from({ length: 10 }, () => expected).flat());
      const { here, workers } = pool.lastSweep();
      expect(here + workers).toBe(many.length);
      expect(here).toBeGreaterThan(0);
      expect(workers).toBeGreaterThan(0);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('fails the next sweep when a worker dies between sweeps, once', async () => {
    // Workers that take no point and exit 2 s after they start: this thread runs each short sweep
    // alone, and the worker started for the first dies after it has ended.
    const pool = new PointPool(2, {
      startWorkersAfterMs: 0,
      newWorker: () => new Worker('setTimeout(() => process.exit(3), 2000)', { eval: true }),
    });
    try {
      await pool.run(points.slice(0, 2), () => undefined);
      expect(pool.workerIds()).toHaveLength(1);
      await new Promise((done) => setTimeout(done, 3000));
      expect(pool.workerIds()).toHaveLength(0);
      await expect(pool.run(points.slice(0, 2), () => undefined)).rejects.toThrow(
        'a worker thread exited (code 3) before the sweep ended',
      );
      const outcomes: PointOutcome[] = [];
      await pool.run(points.slice(0, 2), (_, o) => outcomes.push(o));
      expect(outcomes.map((o) => o.ok)).toEqual([true, true]);
    } finally {
      await pool.close();
    }
  }, 60_000);
});

describe('one pool of two workers, sweep after sweep', () => {
  // As the CLI keeps its pool for a command's sweeps: its workers load the simulator once (a second or
  // more of CPU each), and each case below is a sweep of its own on them.
  const pool = new PointPool(2, WORKERS_ONLY);
  afterAll(() => pool.close());

  it('keeps its workers from one sweep to the next, and they run the second as they ran the first', async () => {
    const ids: number[][] = [];
    for (const list of [points.slice(0, 3), points.slice(3)]) {
      const outcomes: PointOutcome[] = [];
      await pool.run(list, (_, outcome) => outcomes.push(outcome));
      expect(outcomes).toStrictEqual(list.map((p) => ({ ok: true, result: simulatePoint(p) })));
      ids.push(pool.workerIds());
    }
    expect(ids[0]).toHaveLength(2);
    expect(ids[1]).toEqual(ids[0]);
  }, 60_000);

  it('passes on an internal error with its name, message and stack, and keeps its workers', async () => {
    const broken = { ...points[1], algorithm: 'allreduce:no-such-algorithm' };
    let local: unknown;
    try {
      simulatePoint(broken);
    } catch (e) {
      local = e;
    }
    expect(local).toBeInstanceOf(Error);
    const outcomes: PointOutcome[] = [];
    await pool.run(points.slice(0, 2), () => undefined);
    const workers = pool.workerIds();
    await pool.run([points[0], broken, points[2]], (_, outcome) => outcomes.push(outcome));
    expect(outcomes.map((o) => o.ok)).toEqual([true, false, true]);
    const remote = outcomes[1].ok ? undefined : (outcomes[1].error as Error);
    expect(remote?.name).toBe((local as Error).name);
    expect(remote?.message).toBe((local as Error).message);
    expect(remote?.stack?.split('\n')[0]).toBe((local as Error).stack?.split('\n')[0]);
    // A point that fails is an outcome like any other: the sweep ends, and its workers stay.
    expect(workers).toHaveLength(2);
    expect(pool.workerIds()).toEqual(workers);
  }, 60_000);

  it("stops at the first error settle throws, in the points' order", async () => {
    const seen: number[] = [];
    const run = pool.run(points, (index) => {
      seen.push(index);
      if (index === 2) throw new Error('stop at 2');
    });
    await expect(run).rejects.toThrow('stop at 2');
    expect(seen).toEqual([0, 1, 2]);
  }, 60_000);
});
