import { describe, expect, it } from 'vitest';
import { Simulation } from '../../sim/engine/simulation.ts';
import { wait, type Program } from '../../sim/engine/program.ts';
import { all, any, Channel, fired, Mutex, Semaphore, Signal } from '../../sim/engine/primitives.ts';

describe('Signal', () => {
  it('fires once; early and late waiters get the value', () => {
    const sim = new Simulation();
    const sig = new Signal<string>('ready');
    const got: [string, string, number][] = [];
    const waiter = (name: string, delay: number) =>
      sim.spawn(
        name,
        (function* (): Program<void> {
          yield* sim.sleep(delay);
          got.push([name, yield* sig.wait(), sim.now]);
        })(),
      );
    waiter('early', 0);
    waiter('late', 20);
    sim.schedule(10, () => sig.fire('hello'));
    expect(sig.fired).toBe(false);
    expect(sig.value).toBeUndefined();
    sim.run();
    expect(sig.fired).toBe(true);
    expect(sig.value).toBe('hello');
    expect(got).toEqual([
      ['early', 'hello', 10],
      ['late', 'hello', 20],
    ]);
  });

  it('firing twice throws and names the signal', () => {
    const sig = new Signal('flag 7');
    sig.fire();
    expect(() => sig.fire()).toThrow('signal "flag 7" fired twice');
    expect(sig.description).toBe('flag 7');
  });
});

describe('Mutex', () => {
  it('a free lock is taken without suspending or queuing an event', () => {
    const sim = new Simulation();
    const m = new Mutex(sim, 'm');
    let lockedAt = -1;
    sim.spawn(
      'p',
      (function* (): Program<void> {
        const before = sim.eventsProcessed;
        yield* m.lock();
        lockedAt = sim.now;
        expect(sim.eventsProcessed).toBe(before);
        expect(sim.pendingEvents).toBe(0);
        expect(m.locked).toBe(true);
        m.unlock();
      })(),
    );
    sim.run();
    expect(lockedAt).toBe(0);
    expect(m.locked).toBe(false);
    expect(sim.eventsProcessed).toBe(1);
    expect(m.totalWaitNs).toBe(0);
  });

  it('grants in request order and accumulates waiting time', () => {
    const sim = new Simulation();
    const m = new Mutex(sim, 'as-lock');
    const order: [string, number][] = [];
    const worker = (name: string, start: number, hold: number) =>
      sim.spawn(
        name,
        (function* (): Program<void> {
          yield* sim.sleep(start);
          yield* m.lock();
          order.push([name, sim.now]);
          yield* sim.sleep(hold);
          m.unlock();
        })(),
      );
    worker('a', 0, 10);
    worker('c', 2, 10);
    worker('b', 1, 10);
    sim.run({ until: 5 });
    expect(m.queueLength).toBe(2);
    sim.run();
    expect(order).toEqual([
      ['a', 0],
      ['b', 10],
      ['c', 20],
    ]);
    // b waited 10 - 1, c waited 20 - 2.
    expect(m.totalWaitNs).toBe(27);
    expect(m.queueLength).toBe(0);
  });

  it('unlocking a free mutex, or one held by someone else, throws', () => {
    const sim = new Simulation();
    const m = new Mutex(sim, 'm');
    expect(() => m.unlock()).toThrow('unlock of mutex "m", which is not locked');
    sim.spawn(
      'holder',
      (function* (): Program<void> {
        yield* m.lock();
        yield* sim.sleep(10);
      })(),
    );
    sim.spawn(
      'thief',
      (function* (): Program<void> {
        yield* sim.sleep(1);
        m.unlock();
      })(),
    );
    expect(() => sim.run()).toThrow(
      /process "thief" failed at t=1 ns: process "thief" unlocked mutex "m" held by "holder"/,
    );
  });

  it('relocking a mutex one holds is reported rather than deadlocking silently', () => {
    const sim = new Simulation();
    const m = new Mutex(sim, 'm');
    sim.spawn(
      'p',
      (function* (): Program<void> {
        yield* m.lock();
        yield* m.lock();
      })(),
    );
    expect(() => sim.run()).toThrow(/locked mutex "m" it already holds/);
  });
});

describe('Semaphore', () => {
  it('hands out permits FIFO; a large request at the head is not overtaken', () => {
    const sim = new Simulation();
    const s = new Semaphore(sim, 'slots', 3);
    const got: [string, number][] = [];
    const user = (name: string, start: number, n: number, hold: number) =>
      sim.spawn(
        name,
        (function* (): Program<void> {
          yield* sim.sleep(start);
          yield* s.acquire(n);
          got.push([name, sim.now]);
          yield* sim.sleep(hold);
          s.release(n);
        })(),
      );
    user('two', 0, 2, 10); // 1 left
    user('three', 1, 3, 5); // waits for all three, until 10
    user('one', 2, 1, 1); // one permit is free, but 'three' is ahead
    sim.run({ until: 3 });
    expect(s.available).toBe(1);
    expect(s.queueLength).toBe(2);
    sim.run();
    expect(got).toEqual([
      ['two', 0],
      ['three', 10],
      ['one', 15],
    ]);
    expect(s.available).toBe(3);
    expect(s.totalWaitNs).toBe(9 + 13);
  });

  it('rejects non-integer or non-positive counts', () => {
    const sim = new Simulation();
    expect(() => new Semaphore(sim, 's', -1)).toThrow(RangeError);
    const s = new Semaphore(sim, 's', 1);
    expect(() => s.release(0)).toThrow(RangeError);
    expect(() => s.acquire(1.5).next()).toThrow(RangeError);
  });
});

describe('Channel', () => {
  it('delivers in FIFO order, buffering when nobody waits and handing off when someone does', () => {
    const sim = new Simulation();
    const ch = new Channel<number>('mailbox');
    const received: [string, number, number][] = [];
    const getter = (name: string, count: number) =>
      sim.spawn(
        name,
        (function* (): Program<void> {
          for (let i = 0; i < count; i++) received.push([name, yield* ch.get(), sim.now]);
        })(),
      );
    ch.put(1);
    ch.put(2);
    expect(ch.length).toBe(2);
    getter('g1', 3);
    getter('g2', 1);
    sim.schedule(10, () => ch.put(3));
    sim.schedule(20, () => ch.put(4));
    sim.run();
    expect(received).toEqual([
      ['g1', 1, 0],
      ['g1', 2, 0],
      // g1 drained the buffer without suspending, then queued for more before g2 did.
      ['g1', 3, 10],
      ['g2', 4, 20],
    ]);
    expect(ch.length).toBe(0);
  });

  it('a get on an empty channel shows up in a deadlock report', () => {
    const sim = new Simulation();
    const ch = new Channel<number>('replies');
    sim.spawn('client', ch.get());
    expect(() => sim.run()).toThrow('client waits for a message on channel "replies"');
  });
});

describe('all, any, fired', () => {
  it('all waits for every input and returns values in input order', () => {
    const sim = new Simulation();
    const a = new Signal<number>('a');
    const b = new Signal<number>('b');
    let result: number[] = [];
    let at = -1;
    const p = sim.spawn(
      'joiner',
      (function* (): Program<void> {
        result = yield* wait(all([a, b, fired(0)], 'both'));
        at = sim.now;
      })(),
    );
    sim.schedule(5, () => b.fire(2));
    sim.schedule(9, () => a.fire(1));
    sim.run({ until: 6 });
    expect(p.waitingOn).toBe('both');
    sim.run();
    expect(result).toEqual([1, 2, 0]);
    expect(at).toBe(9);
  });

  it('all of nothing fires at once; its default description lists what is still pending', () => {
    const sim = new Simulation();
    let got: unknown;
    sim.spawn(
      'p',
      (function* (): Program<void> {
        got = yield* wait(all<number>([]));
      })(),
    );
    sim.run();
    expect(got).toEqual([]);
    const a = new Signal('a');
    const b = new Signal('b');
    const w = all([a, b]);
    a.fire();
    expect(w.description).toBe('all of [b]');
  });

  it('any returns the first to fire with its index; ties go to the lower index', () => {
    const sim = new Simulation();
    const msg = new Signal<string>('message');
    let first: { index: number; value: unknown } | undefined;
    sim.spawn(
      'p',
      (function* (): Program<void> {
        first = yield* wait(any<unknown>([sim.timeout(100), msg]));
      })(),
    );
    sim.schedule(30, () => msg.fire('hi'));
    sim.run();
    expect(first).toEqual({ index: 1, value: 'hi' });
    const both = any([fired('x'), fired('y')]);
    let tie: unknown;
    both.onFire((v) => (tie = v));
    expect(tie).toEqual({ index: 0, value: 'x' });
    expect(() => any([])).toThrow(RangeError);
  });

  it('any with a timeout wins when nothing else fires', () => {
    const sim = new Simulation();
    let first: { index: number } | undefined;
    sim.spawn(
      'p',
      (function* (): Program<void> {
        first = yield* wait(any<unknown>([new Signal('never'), sim.timeout(100)]));
      })(),
    );
    sim.run();
    expect(first?.index).toBe(1);
    expect(sim.now).toBe(100);
  });
});
