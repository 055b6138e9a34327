// A simulated process: a generator driven by the event loop. Each yielded Waitable suspends it;
// when that fires, the process resumes as a new event at the current time, never inside the
// firing call, so stacks stay shallow and the order of resumptions is the queue's order.

import type { QueueEntry } from './event-queue.ts';
import { ProcessError } from './errors.ts';
import type { EngineHost } from './host.ts';
import type { Program } from './program.ts';
import { Timeout } from './timeout.ts';
import type { Waitable } from './waitable.ts';

/** Joinable: `yield* wait(proc)` (or `yield proc`) returns the process's result. */
export class Process<T> implements Waitable<T>, QueueEntry {
  private finished = false;
  private returned: T | undefined = undefined;
  private waitingFor: Waitable<unknown> | undefined = undefined;
  /** True between subscribing to a Waitable and its first callback; catches double wake-ups. */
  private subscribed = false;
  private resumeValue: unknown = undefined;
  private joiners: ((value: T) => void)[] | null = null;
  private readonly wake: (value: unknown) => void;

  /** Use `Simulation.spawn`, which also queues the start. */
  constructor(
    private readonly host: EngineHost,
    readonly name: string,
    private readonly program: Program<T>,
  ) {
    this.wake = (value) => {
      if (!this.subscribed) {
        throw new Error(`process "${this.name}" was woken twice by ${this.waitingOn ?? 'a waitable'}`);
      }
      this.subscribed = false;
      this.waitingFor = undefined;
      this.resumeValue = value;
      this.host.enqueue(this.host.now, this);
    };
  }

  get done(): boolean {
    return this.finished;
  }

  get result(): T | undefined {
    return this.returned;
  }

  get description(): string {
    return `process "${this.name}" to finish`;
  }

  /** Description of what this process is blocked on; undefined when runnable or finished. */
  get waitingOn(): string | undefined {
    return this.waitingFor?.description;
  }

  onFire(cb: (value: T) => void): void {
    if (this.finished) cb(this.returned as T);
    else (this.joiners ??= []).push(cb);
  }

  /** Queue entry: start, or resume with the value of the Waitable that woke it. */
  fireEvent(): void {
    const value = this.resumeValue;
    this.resumeValue = undefined;
    this.step(value);
  }

  /** Called by a Timeout's own expiry event; see `Timeout.waiter`. */
  resumeFromTimeout(): void {
    this.waitingFor = undefined;
    this.step(undefined);
  }

  private step(value: unknown): void {
    const host = this.host;
    let r: IteratorResult<Waitable<unknown>, T>;
    host.current = this as Process<unknown>;
    try {
      r = this.program.next(value);
    } catch (e) {
      host.current = undefined;
      this.fail(e);
    } finally {
      host.current = undefined;
    }
    if (r.done) {
      this.returned = r.value;
      this.finish();
      const joiners = this.joiners;
      if (joiners !== null) {
        this.joiners = null;
        for (const cb of joiners) cb(r.value);
      }
      return;
    }
    const w: unknown = r.value;
    // `time >= 0` is false for a sleep that was yielded instead of delegated to (never started).
    if (w instanceof Timeout && w.host === host && !w.fired && w.waiter === null && w.time >= 0) {
      this.waitingFor = w;
      w.waiter = this as Process<unknown>;
      return;
    }
    if (!isWaitable(w)) {
      this.fail(
        new TypeError(
          `yielded ${describeNonWaitable(w)}, which is not a Waitable (write \`yield*\` to run a sub-program)`,
        ),
      );
    }
    this.waitingFor = w;
    this.subscribed = true;
    try {
      w.onFire(this.wake);
    } catch (e) {
      this.fail(e);
    }
  }

  private fail(cause: unknown): never {
    this.finish();
    throw new ProcessError(this.name, this.host.now, cause);
  }

  private finish(): void {
    this.finished = true;
    this.waitingFor = undefined;
    this.host.processFinished(this as Process<unknown>);
  }
}

function isWaitable(w: unknown): w is Waitable<unknown> {
  return typeof w === 'object' && w !== null && typeof (w as Waitable<unknown>).onFire === 'function';
}

function describeNonWaitable(w: unknown): string {
  if (w === null) return 'null';
  if (typeof w !== 'object') return `a ${typeof w}`;
  if (typeof (w as Iterator<unknown>).next === 'function') return 'a generator';
  return 'an object';
}
