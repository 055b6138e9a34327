// Property suites: the engine's promises checked over randomly generated programs.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DeadlockError, Simulation } from '../../sim/engine/simulation.ts';
import { wait, type Program } from '../../sim/engine/program.ts';
import { any, Mutex, Signal } from '../../sim/engine/primitives.ts';

type Op =
  | { kind: 'sleep'; dt: number }
  | { kind: 'rand'; scale: number }
  | { kind: 'lock'; m: number; hold: number }
  | { kind: 'fire'; s: number }
  | { kind: 'wait'; s: number }
  | { kind: 'waitOrTimeout'; s: number; dt: number };

const MUTEXES = 3;
const SIGNALS = 4;

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('sleep' as const), dt: fc.integer({ min: 0, max: 20 }) }),
  fc.record({ kind: fc.constant('rand' as const), scale: fc.integer({ min: 1, max: 50 }) }),
  fc.record({
    kind: fc.constant('lock' as const),
    m: fc.integer({ min: 0, max: MUTEXES - 1 }),
    hold: fc.integer({ min: 0, max: 10 }),
  }),
  fc.record({ kind: fc.constant('fire' as const), s: fc.integer({ min: 0, max: SIGNALS - 1 }) }),
  fc.record({ kind: fc.constant('wait' as const), s: fc.integer({ min: 0, max: SIGNALS - 1 }) }),
  fc.record({
    kind: fc.constant('waitOrTimeout' as const),
    s: fc.integer({ min: 0, max: SIGNALS - 1 }),
    dt: fc.integer({ min: 0, max: 30 }),
  }),
);

/** Runs a program mix and returns everything observable about it, in order. */
function runMix(programs: Op[][], seed: string): string[] {
  const sim = new Simulation({ seed });
  const log: string[] = [];
  const mutexes = Array.from({ length: MUTEXES }, (_, i) => new Mutex(sim, `m${i}`));
  const signals = Array.from({ length: SIGNALS }, (_, i) => new Signal<string>(`s${i}`));
  const note = (who: string, what: string) => log.push(`${sim.now} ${who} ${what}`);
  programs.forEach((ops, p) => {
    const name = `p${p}`;
    sim.spawn(
      name,
      (function* (): Program<void> {
        for (const op of ops) {
          switch (op.kind) {
            case 'sleep':
              yield* sim.sleep(op.dt);
              note(name, `slept ${op.dt}`);
              break;
            case 'rand': {
              const x = sim.random();
              yield* sim.sleep(x * op.scale);
              note(name, `drew ${x}`);
              break;
            }
            case 'lock':
              yield* mutexes[op.m].lock();
              note(name, `locked m${op.m}`);
              yield* sim.sleep(op.hold);
              mutexes[op.m].unlock();
              break;
            case 'fire':
              if (!signals[op.s].fired) signals[op.s].fire(name);
              note(name, `fired s${op.s}`);
              break;
            case 'wait':
              note(name, `got ${yield* signals[op.s].wait()} from s${op.s}`);
              break;
            case 'waitOrTimeout': {
              const r = yield* wait(any<unknown>([signals[op.s], sim.timeout(op.dt)]));
              note(name, `any -> ${r.index}`);
              break;
            }
          }
        }
        note(name, 'done');
      })(),
    );
  });
  try {
    sim.run();
  } catch (e) {
    if (!(e instanceof DeadlockError)) throw e;
    log.push(e.message);
  }
  log.push(`events ${sim.eventsProcessed}`, `wait ${mutexes.map((m) => m.totalWaitNs).join(',')}`);
  return log;
}

describe('engine properties', () => {
  it('(1) determinism: the same program mix and seed give an identical event log', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(opArb, { maxLength: 12 }), { minLength: 1, maxLength: 8 }),
        fc.string(),
        (programs, seed) => {
          expect(runMix(programs, seed)).toEqual(runMix(programs, seed));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('(2) timeouts fire in nondecreasing time order, ties in creation order', () => {
    const batchArb = fc.record({
      at: fc.integer({ min: 0, max: 10 }),
      delays: fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 10 }),
      viaProcess: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(batchArb, { maxLength: 10 }), (batches) => {
        const sim = new Simulation();
        let created = 0;
        const fired: { time: number; expected: number; seq: number }[] = [];
        for (const { at, delays, viaProcess } of batches) {
          sim.at(at, () => {
            for (const d of delays) {
              if (viaProcess) {
                // A sleeping process: the timeout is made when the process first runs.
                sim.spawn(
                  'sleeper',
                  (function* (): Program<void> {
                    const seq = created++;
                    const expected = sim.now + d;
                    yield* sim.sleep(d);
                    fired.push({ time: sim.now, expected, seq });
                  })(),
                );
              } else {
                const seq = created++;
                const expected = sim.now + d;
                sim.timeout(d).onFire(() => fired.push({ time: sim.now, expected, seq }));
              }
            }
          });
        }
        sim.run();
        expect(fired.length).toBe(created);
        for (let i = 0; i < fired.length; i++) {
          expect(fired[i].time).toBe(fired[i].expected);
          if (i === 0) continue;
          const [a, b] = [fired[i - 1], fired[i]];
          expect(a.time <= b.time).toBe(true);
          if (a.time === b.time) expect(a.seq).toBeLessThan(b.seq);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('(3) deadlocks name every blocked process and what it waits for', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 20 }), { minLength: 2, maxLength: 6 }),
        fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 4 }),
        fc.array(fc.integer({ min: 0, max: 30 }), { maxLength: 4 }),
        (cycleHolds, signalWaitDelays, finisherSleeps) => {
          const sim = new Simulation();
          const n = cycleHolds.length;
          const mutexes = cycleHolds.map((_, i) => new Mutex(sim, `M${i}`));
          const expected: { process: string; waitingOn: string }[] = [];
          // Process i holds mutex i and then wants mutex i+1: a cycle of n lock-order inversions.
          cycleHolds.forEach((hold, i) => {
            sim.spawn(
              `cycle${i}`,
              (function* (): Program<void> {
                yield* mutexes[i].lock();
                yield* sim.sleep(hold);
                yield* mutexes[(i + 1) % n].lock();
              })(),
            );
            const next = (i + 1) % n;
            expected.push({ process: `cycle${i}`, waitingOn: `mutex "M${next}" held by "cycle${next}"` });
          });
          signalWaitDelays.forEach((d, i) => {
            const never = new Signal(`signal nobody fires #${i}`);
            sim.spawn(
              `waiter${i}`,
              (function* (): Program<void> {
                yield* sim.sleep(d);
                yield* never.wait();
              })(),
            );
            expected.push({ process: `waiter${i}`, waitingOn: `signal nobody fires #${i}` });
          });
          finisherSleeps.forEach((d, i) => sim.spawn(`finisher${i}`, sim.sleep(d)));
          let err: unknown;
          try {
            sim.run();
          } catch (e) {
            err = e;
          }
          expect(err).toBeInstanceOf(DeadlockError);
          const dl = err as DeadlockError;
          expect(dl.blocked).toEqual(expected);
          const lines = dl.message.split('\n').slice(1);
          expect(lines).toEqual(expected.map((b) => `  ${b.process} waits for ${b.waitingOn}`));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('(4) the mutex is FIFO and never held by two processes at once', () => {
    const workerArb = fc.record({
      start: fc.integer({ min: 0, max: 20 }),
      rounds: fc.array(fc.record({ hold: fc.integer({ min: 0, max: 10 }), gap: fc.integer({ min: 0, max: 10 }) }), {
        minLength: 1,
        maxLength: 5,
      }),
    });
    fc.assert(
      fc.property(fc.array(workerArb, { minLength: 1, maxLength: 8 }), (workers) => {
        const sim = new Simulation();
        const m = new Mutex(sim, 'm');
        const requests: string[] = [];
        const grants: string[] = [];
        let inside = 0;
        let maxInside = 0;
        let waited = 0;
        workers.forEach(({ start, rounds }, w) => {
          sim.spawn(
            `w${w}`,
            (function* (): Program<void> {
              yield* sim.sleep(start);
              for (let r = 0; r < rounds.length; r++) {
                const id = `w${w}.${r}`;
                const askedAt = sim.now;
                requests.push(id);
                yield* m.lock();
                waited += sim.now - askedAt;
                grants.push(id);
                inside++;
                maxInside = Math.max(maxInside, inside);
                yield* sim.sleep(rounds[r].hold);
                inside--;
                m.unlock();
                yield* sim.sleep(rounds[r].gap);
              }
            })(),
          );
        });
        sim.run();
        expect(maxInside).toBe(1);
        expect(grants).toEqual(requests);
        expect(m.totalWaitNs).toBe(waited);
        expect(m.locked).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});
