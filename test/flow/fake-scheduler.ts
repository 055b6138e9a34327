// A minimal deterministic Scheduler for testing the flow solver without the engine: events sit in
// a list sorted by (time, insertion order) and run one by one. Built with `{ endOfInstant: true }`
// it also offers atEndOfInstant, as the engine does, and then looks at the network (afterEach) only
// once an instant is over, when what was put off to its end has run.

import type { Cancellable, Scheduler } from '../../sim/engine/waitable.ts';

interface Entry {
  time: number;
  seq: number;
  fn: () => void;
  cancelled: boolean;
}

export class FakeScheduler implements Scheduler {
  now = 0;
  /** Called after every event runs (with endOfInstant: after every instant); tests use it to look
   *  at the network between events. */
  afterEach: (() => void) | undefined;
  readonly atEndOfInstant: ((fn: () => void) => void) | undefined;
  private readonly events: Entry[] = [];
  private seq = 0;
  private instantEnds: (() => void)[] = [];

  constructor(opts: { endOfInstant?: boolean } = {}) {
    this.atEndOfInstant = opts.endOfInstant ? (fn) => this.instantEnds.push(fn) : undefined;
  }

  schedule(delay: number, fn: () => void): Cancellable {
    if (!(delay >= 0)) throw new RangeError(`FakeScheduler: delay must be >= 0, got ${delay}`);
    const entry: Entry = { time: this.now + delay, seq: this.seq++, fn, cancelled: false };
    // Binary search for the first entry that sorts after this one; equal times keep insertion order.
    let lo = 0;
    let hi = this.events.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.events[mid].time <= entry.time) lo = mid + 1;
      else hi = mid;
    }
    this.events.splice(lo, 0, entry);
    return { cancel: () => (entry.cancelled = true) };
  }

  /** Pending events that were not cancelled. */
  get pending(): number {
    return this.events.filter((e) => !e.cancelled).length;
  }

  /** Runs the next live event; false when none is left. */
  step(): boolean {
    while (this.events.length > 0) {
      const e = this.events.shift()!;
      if (e.cancelled) continue;
      this.now = e.time;
      e.fn();
      if (this.instantOver()) this.afterEach?.();
      return true;
    }
    return false;
  }

  /** Without endOfInstant, true. With it: whether the instant is over, once what waited for its end
   *  has run (which may schedule more events at this instant, and then it is not over). */
  private instantOver(): boolean {
    if (this.atEndOfInstant === undefined) return true;
    for (;;) {
      const next = this.events.find((e) => !e.cancelled);
      if (next !== undefined && next.time <= this.now) return false;
      if (this.instantEnds.length === 0) return true;
      const fns = this.instantEnds;
      this.instantEnds = [];
      for (const fn of fns) fn();
    }
  }

  /** Runs events up to and including time `t`, then sets the clock to `t`. */
  runUntil(t: number): void {
    for (;;) {
      while (this.events.length > 0 && this.events[0].cancelled) this.events.shift();
      if (this.events.length === 0 || this.events[0].time > t) break;
      this.step();
    }
    this.now = Math.max(this.now, t);
  }

  runAll(maxEvents = 1_000_000): void {
    for (let n = 0; this.step(); n++) {
      if (n >= maxEvents) throw new Error(`FakeScheduler: more than ${maxEvents} events; a livelock?`);
    }
  }
}
