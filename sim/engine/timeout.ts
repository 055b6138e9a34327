// A Waitable that fires at a fixed simulated time. Its expiry is the queue entry itself, so a
// sleeping process costs one event and one small object, no closure.

import type { QueueEntry } from './event-queue.ts';
import type { EngineHost } from './host.ts';
import type { Process } from './process.ts';
import type { Waitable } from './waitable.ts';

export class Timeout implements Waitable<void>, QueueEntry {
  fired = false;
  /**
   * The first process that blocks on this timeout. The expiry event resumes it directly after the
   * other callbacks ran, which is where a separately queued resume would have run it anyway, less
   * the extra event. Any later waiter goes through `onFire` like on any other Waitable.
   */
  waiter: Process<unknown> | null = null;
  private callbacks: ((value: void) => void)[] | null = null;

  constructor(
    readonly host: EngineHost,
    public time: number,
  ) {}

  get description(): string {
    return `timeout at t=${this.time} ns`;
  }

  onFire(cb: (value: void) => void): void {
    if (this.fired) cb();
    else (this.callbacks ??= []).push(cb);
  }

  fireEvent(): void {
    this.fired = true;
    const callbacks = this.callbacks;
    if (callbacks !== null) {
      this.callbacks = null;
      for (const cb of callbacks) cb();
    }
    const waiter = this.waiter;
    if (waiter !== null) {
      this.waiter = null;
      waiter.resumeFromTimeout();
    }
  }
}

const DONE: IteratorResult<never, void> = Object.freeze({ value: undefined, done: true });

/**
 * `sim.sleep(dt)`: a timeout that is also the one-step Program yielding itself. It stands in for
 * `function* () { yield sim.timeout(dt) }` without a generator object per sleep, which is the
 * single most frequent thing a model does. Like that generator, the clock starts on first step.
 */
export class Sleep extends Timeout implements Generator<Waitable<unknown>, void, unknown> {
  private started = false;
  private finished = false;

  constructor(
    host: EngineHost,
    private readonly delay: number,
    private readonly schedule: (entry: Timeout) => void,
  ) {
    super(host, NaN);
  }

  next(): IteratorResult<Waitable<unknown>, void> {
    if (this.finished) return DONE;
    if (!this.started) {
      this.started = true;
      this.time = this.host.now + this.delay;
      this.schedule(this);
      return { value: this, done: false };
    }
    this.finished = true;
    return DONE;
  }

  return(value: void): IteratorResult<Waitable<unknown>, void> {
    this.finished = true;
    return { value, done: true };
  }

  throw(e: unknown): IteratorResult<Waitable<unknown>, void> {
    this.finished = true;
    throw e;
  }

  override onFire(cb: (value: void) => void): void {
    if (!this.started) {
      throw new TypeError(
        'sim.sleep() is a program: run it with `yield* sim.sleep(dt)`; to combine a timer with other waitables use sim.timeout(dt)',
      );
    }
    super.onFire(cb);
  }

  [Symbol.iterator](): this {
    return this;
  }
}
