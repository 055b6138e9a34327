import { describe, expect, it } from 'vitest';
import { DeadlockError, Process, ProcessError, Simulation } from '../../sim/engine/simulation.ts';
import { wait, type Program } from '../../sim/engine/program.ts';
import { Signal } from '../../sim/engine/primitives.ts';

describe('Simulation clock and scheduling', () => {
  it('starts at 0 and advances to each event time', () => {
    const sim = new Simulation();
    const seen: [string, number][] = [];
    sim.schedule(30, () => seen.push(['b', sim.now]));
    sim.schedule(10, () => seen.push(['a', sim.now]));
    sim.at(30, () => seen.push(['c', sim.now]));
    expect(sim.now).toBe(0);
    sim.run();
    expect(seen).toEqual([
      ['a', 10],
      ['b', 30],
      ['c', 30],
    ]);
    expect(sim.now).toBe(30);
    expect(sim.eventsProcessed).toBe(3);
  });

  it('runs what waits for the end of an instant after its last event, before the clock moves', () => {
    const sim = new Simulation();
    const seen: string[] = [];
    sim.schedule(10, () => {
      seen.push(`a@${sim.now}`);
      sim.atEndOfInstant(() => {
        seen.push(`end@${sim.now}`);
        // Scheduled now, it belongs to this instant, and so does what waits for its end.
        sim.schedule(0, () => {
          seen.push(`c@${sim.now}`);
          sim.atEndOfInstant(() => seen.push(`end2@${sim.now}`));
        });
      });
    });
    sim.schedule(10, () => seen.push(`b@${sim.now}`));
    sim.schedule(20, () => seen.push(`d@${sim.now}`));
    sim.run({ until: 15 });
    expect(seen).toEqual(['a@10', 'b@10', 'end@10', 'c@10', 'end2@10']);
    sim.run();
    expect(seen.at(-1)).toBe('d@20');
  });

  it('rejects negative, infinite and NaN delays, and absolute times in the past', () => {
    const sim = new Simulation();
    for (const bad of [-1, Infinity, NaN]) {
      expect(() => sim.schedule(bad, () => {})).toThrow(RangeError);
      expect(() => sim.timeout(bad)).toThrow(RangeError);
      expect(() => sim.sleep(bad)).toThrow(RangeError);
    }
    sim.schedule(5, () => expect(() => sim.at(4, () => {})).toThrow(/>= now \(5 ns\)/));
    sim.run();
  });

  it('cancelled callbacks do not run and are not counted', () => {
    const sim = new Simulation();
    let ran = 0;
    const c = sim.schedule(10, () => ran++);
    sim.schedule(20, () => ran++);
    c.cancel();
    sim.run();
    expect(ran).toBe(1);
    expect(sim.eventsProcessed).toBe(1);
  });

  it('drops cancelled callbacks once they outnumber the live ones, running the rest in the same order', () => {
    // Each step reschedules a far-off callback, cancelling the one before, as the flow network
    // reschedules its wakeup at every re-solve: without the drop, the queue would hold them all.
    const sim = new Simulation();
    const fired: string[] = [];
    let pending = sim.schedule(1e9, () => fired.push('far 0'));
    let steps = 0;
    let mostQueued = 0;
    const step = () => {
      steps++;
      fired.push(`step ${steps}`);
      pending.cancel();
      const k = steps;
      pending = sim.schedule(1e9, () => fired.push(`far ${k}`));
      mostQueued = Math.max(mostQueued, sim.pendingEvents);
      if (steps < 20_000) sim.schedule(1, step);
    };
    sim.schedule(0, step);
    sim.run();
    expect(mostQueued).toBeLessThan(2 * 4096 + 4);
    expect(fired).toEqual([...Array.from({ length: 20_000 }, (_, i) => `step ${i + 1}`), 'far 20000']);
    expect(sim.eventsProcessed).toBe(20_001);
  });

  it('run({until}) stops there, keeps later events, and resumes from them', () => {
    const sim = new Simulation();
    const seen: number[] = [];
    const sig = new Signal('never before 50');
    sim.spawn('waiter', sig.wait());
    for (const t of [10, 50, 90]) sim.schedule(t, () => seen.push(t));
    sim.schedule(50, () => sig.fire());
    sim.run({ until: 50 });
    expect(seen).toEqual([10, 50]);
    expect(sim.now).toBe(50);
    sim.run({ until: 70 });
    expect(sim.now).toBe(70);
    expect(sim.pendingEvents).toBe(1);
    sim.run();
    expect(seen).toEqual([10, 50, 90]);
  });

  it('refuses to run from inside an event', () => {
    const sim = new Simulation();
    sim.schedule(1, () => sim.run());
    expect(() => sim.run()).toThrow(/already running/);
  });

  it('random() is reproducible per seed and differs across seeds', () => {
    const draw = (seed?: string | number) => {
      const sim = new Simulation(seed === undefined ? {} : { seed });
      return Array.from({ length: 5 }, () => sim.random());
    };
    expect(draw()).toEqual(draw('intranode'));
    expect(draw(7)).toEqual(draw('7'));
    expect(draw(1)).not.toEqual(draw(2));
    for (const x of draw('range')) expect(x >= 0 && x < 1).toBe(true);
  });
});

describe('processes', () => {
  it('start as an event at the current time, not inside spawn()', () => {
    const sim = new Simulation();
    const log: string[] = [];
    sim.spawn(
      'p',
      (function* (): Program<void> {
        log.push(`start at ${sim.now}`);
      })(),
    );
    log.push('after spawn');
    sim.run();
    expect(log).toEqual(['after spawn', 'start at 0']);
  });

  it('sleep and timeout advance simulated time; timeout counts from creation', () => {
    const sim = new Simulation();
    const times: number[] = [];
    sim.spawn(
      'p',
      (function* (): Program<void> {
        yield* sim.sleep(100);
        times.push(sim.now);
        const t = sim.timeout(50);
        yield* sim.sleep(20);
        times.push(sim.now);
        yield* wait(t);
        times.push(sim.now);
        yield* wait(t); // already fired: resumes at once
        times.push(sim.now);
      })(),
    );
    sim.run();
    expect(times).toEqual([100, 120, 150, 150]);
  });

  it('a sleep created but not stepped starts its clock when stepped, like a generator', () => {
    const sim = new Simulation();
    let end = -1;
    sim.spawn(
      'p',
      (function* (): Program<void> {
        const later = sim.sleep(10);
        yield* sim.sleep(5);
        yield* later;
        end = sim.now;
      })(),
    );
    sim.run();
    expect(end).toBe(15);
  });

  it('several processes may wait on one timeout and all resume at its time', () => {
    const sim = new Simulation();
    const t = sim.timeout(40);
    const woke: [string, number][] = [];
    for (const name of ['a', 'b', 'c']) {
      sim.spawn(
        name,
        (function* (): Program<void> {
          yield* wait(t);
          woke.push([name, sim.now]);
        })(),
      );
    }
    sim.run();
    expect(woke).toEqual([
      ['a', 40],
      ['b', 40],
      ['c', 40],
    ]);
  });

  it('are joinable and expose done, result and waitingOn', () => {
    const sim = new Simulation();
    const child = sim.spawn(
      'child',
      (function* (): Program<number> {
        yield* sim.sleep(10);
        return 42;
      })(),
    );
    let got = 0;
    const parent = sim.spawn(
      'parent',
      (function* (): Program<string> {
        got = yield* wait(child);
        return `joined at ${sim.now}`;
      })(),
    );
    expect(child).toBeInstanceOf(Process);
    sim.run({ until: 5 });
    expect(child.done).toBe(false);
    expect(child.waitingOn).toBe('timeout at t=10 ns');
    expect(parent.waitingOn).toBe('process "child" to finish');
    sim.run();
    expect(got).toBe(42);
    expect(child.result).toBe(42);
    expect(parent.result).toBe('joined at 10');
    expect(parent.done).toBe(true);
    expect(parent.waitingOn).toBeUndefined();
  });

  it('a waitable firing resumes the waiter as a later event, not inside fire()', () => {
    const sim = new Simulation();
    const sig = new Signal<number>('go');
    const log: string[] = [];
    sim.spawn(
      'waiter',
      (function* (): Program<void> {
        const v = yield* sig.wait();
        log.push(`woke with ${v}`);
      })(),
    );
    sim.schedule(5, () => {
      sig.fire(3);
      log.push('fire returned');
    });
    sim.run();
    expect(log).toEqual(['fire returned', 'woke with 3']);
  });

  it('an error inside a process names the process and the time, keeping the cause', () => {
    const sim = new Simulation();
    const boom = new Error('boom');
    sim.spawn(
      'rank 3',
      (function* (): Program<void> {
        yield* sim.sleep(25);
        throw boom;
      })(),
    );
    let caught: unknown;
    try {
      sim.run();
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(ProcessError);
    const err = caught as ProcessError;
    expect(err.message).toBe('process "rank 3" failed at t=25 ns: boom');
    expect(err.cause).toBe(boom);
    expect(err.process).toBe('rank 3');
    expect(err.time).toBe(25);
  });

  it('yielding a sub-program instead of delegating to it is reported', () => {
    const sim = new Simulation();
    sim.spawn(
      'oops',
      (function* (): Program<void> {
        yield sim.sleep(5) as never;
      })(),
    );
    expect(() => sim.run()).toThrow(
      /process "oops" failed at t=0 ns: sim\.sleep\(\) is a program: run it with `yield\* sim\.sleep/,
    );
    const sim2 = new Simulation();
    sim2.spawn(
      'oops2',
      (function* (): Program<void> {
        yield new Signal('s').wait() as never;
      })(),
    );
    expect(() => sim2.run()).toThrow(
      /process "oops2" failed at t=0 ns: yielded a generator, which is not a Waitable \(write `yield\*`/,
    );
  });

  it('the queue emptying with a blocked process is a deadlock; finished ones are not listed', () => {
    const sim = new Simulation();
    sim.spawn('fine', sim.sleep(3));
    sim.spawn('stuck', new Signal('the go-ahead').wait());
    let err: DeadlockError | undefined;
    try {
      sim.run();
    } catch (e) {
      err = e as DeadlockError;
    }
    expect(err).toBeInstanceOf(DeadlockError);
    expect(err!.blocked).toEqual([{ process: 'stuck', waitingOn: 'the go-ahead' }]);
    expect(err!.message).toBe('deadlock at t=3 ns: 1 process blocked\n  stuck waits for the go-ahead');
  });

  it('run({until}) with blocked processes and queued events is not a deadlock', () => {
    const sim = new Simulation();
    sim.spawn('stuck', new Signal('x').wait());
    sim.schedule(100, () => {});
    expect(() => sim.run({ until: 50 })).not.toThrow();
    expect(() => sim.run()).toThrow(DeadlockError);
  });
});
