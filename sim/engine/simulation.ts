// The simulated clock and its event loop. Events run in (time, insertion) order, so a run is a
// pure function of its inputs and seed.

import seedrandom from 'seedrandom';
import { DeadlockError } from './errors.ts';
import { EventQueue, type QueueEntry } from './event-queue.ts';
import type { EngineHost } from './host.ts';
import { Process } from './process.ts';
import type { Program } from './program.ts';
import { Sleep, Timeout } from './timeout.ts';
import type { Cancellable, Scheduler, Waitable } from './waitable.ts';
import { stateRules } from '../../common/state-fingerprint.ts';

export { DeadlockError, ProcessError, type BlockedProcess } from './errors.ts';
export { Process } from './process.ts';

export interface SimulationOptions {
  /** Seeds `random()`; default "intranode". */
  seed?: string | number;
}

export interface RunOptions {
  /** Stop once the next event lies after this time; later events stay queued. */
  until?: number;
}

export class Simulation implements Scheduler, EngineHost {
  /** @internal Engine bookkeeping; read `currentProcess` instead. */
  current: Process<unknown> | undefined = undefined;
  private clock = 0;
  private readonly queue = new EventQueue();
  private readonly rng: () => number;
  private readonly live = new Set<Process<unknown>>();
  private running = false;
  private popped = 0;
  private cancelledPopped = 0;
  /** Cancelled callbacks still queued: when they outnumber the live entries, they are dropped. */
  private cancelledQueued = 0;
  private draws = 0;
  /** What runs when the current instant has no event left (atEndOfInstant), and its spare list. */
  private instantEnds: (() => void)[] = [];
  private spareInstantEnds: (() => void)[] = [];
  private readonly pushTimeout = (t: Timeout): void => this.queue.push(t.time, t);

  constructor(opts: SimulationOptions = {}) {
    const seed = opts.seed ?? 'intranode';
    if (typeof seed !== 'string' && !(typeof seed === 'number' && Number.isFinite(seed))) {
      throw new TypeError(`Simulation seed must be a string or a finite number, got ${String(seed)}`);
    }
    // Alea rather than seedrandom's default ARC4: several times faster per draw, which matters
    // when every simulated sleep may draw a jitter, and of ample quality for simulation.
    this.rng = seedrandom.alea(String(seed));
  }

  /** Simulated time in ns. */
  get now(): number {
    return this.clock;
  }

  /** Events run so far (cancelled callbacks not counted). */
  get eventsProcessed(): number {
    return this.popped - this.cancelledPopped;
  }

  /** Events still queued, cancelled ones included until their time comes or they are dropped. */
  get pendingEvents(): number {
    return this.queue.size;
  }

  /** The process whose code is running now; undefined inside plain scheduled callbacks. */
  get currentProcess(): Process<unknown> | undefined {
    return this.current;
  }

  schedule(delay: number, fn: () => void): Cancellable {
    checkDelay('schedule', delay);
    const call = new ScheduledCall(this, fn);
    this.queue.push(this.clock + delay, call);
    return call;
  }

  at(time: number, fn: () => void): Cancellable {
    if (!(Number.isFinite(time) && time >= this.clock)) {
      throw new RangeError(`at: time must be finite and >= now (${this.clock} ns), got ${time}`);
    }
    const call = new ScheduledCall(this, fn);
    this.queue.push(time, call);
    return call;
  }

  atEndOfInstant(fn: () => void): void {
    this.instantEnds.push(fn);
  }

  /**
   * When the next event other than `excluded` (callbacks this simulation scheduled) happens:
   * Infinity when none is queued. Cancelled callbacks do not count. A model that owns the excluded
   * callbacks knows that until then nothing else runs.
   */
  nextEventTimeExcept(excluded: ReadonlySet<unknown>): number {
    return this.queue.earliestExcept((e) => excluded.has(e));
  }

  /** Seeded uniform draw in [0, 1). */
  random(): number {
    this.draws++;
    return this.rng();
  }

  /** Starts `program` as a process at the current time, as an event (not synchronously). */
  spawn<T>(name: string, program: Program<T>): Process<T> {
    const p = new Process<T>(this, name, program);
    this.live.add(p as Process<unknown>);
    this.queue.push(this.clock, p);
    return p;
  }

  /** `yield* sim.sleep(dt)`: blocks the calling process for `dt` ns. */
  sleep(dt: number): Program<void> {
    checkDelay('sleep', dt);
    return new Sleep(this, dt, this.pushTimeout);
  }

  /** A Waitable that fires `dt` ns from now. The clock starts at creation, not when waited on. */
  timeout(dt: number): Waitable<void> {
    checkDelay('timeout', dt);
    const t = new Timeout(this, this.clock + dt);
    this.queue.push(t.time, t);
    return t;
  }

  /**
   * Runs events in order. Throws DeadlockError if the queue empties while a process is blocked,
   * and a ProcessError (original as `cause`) if a process throws.
   */
  run(opts: RunOptions = {}): void {
    const until = opts.until ?? Infinity;
    if (Number.isNaN(until) || until < this.clock) {
      throw new RangeError(`run: until must be >= now (${this.clock} ns), got ${until}`);
    }
    if (this.running) throw new Error('run: the simulation is already running (called from inside an event)');
    this.running = true;
    const queue = this.queue;
    try {
      for (;;) {
        const time = queue.peekTime();
        // The instant is over when no event is left at the current time: what waited for its end
        // runs before the clock moves (and may schedule more events now).
        if (time > this.clock && this.instantEnds.length > 0) {
          this.endInstant();
          continue;
        }
        if (queue.size === 0 || time > until) break;
        this.clock = time;
        const entry = queue.pop();
        this.popped++;
        entry.fireEvent();
      }
    } finally {
      this.running = false;
    }
    if (queue.size === 0 && this.live.size > 0) {
      const blocked = [...this.live].map((p) => ({
        process: p.name,
        waitingOn: p.waitingOn ?? 'nothing (never resumed)',
      }));
      throw new DeadlockError(this.clock, blocked);
    }
    if (until !== Infinity && until > this.clock) this.clock = until;
  }

  private endInstant(): void {
    const fns = this.instantEnds;
    this.instantEnds = this.spareInstantEnds;
    for (let i = 0; i < fns.length; i++) fns[i]();
    fns.length = 0;
    this.spareInstantEnds = fns;
  }

  /** @internal For processes and timeouts of this simulation. */
  enqueue(time: number, entry: QueueEntry): void {
    this.queue.push(time, entry);
  }

  /** @internal */
  processFinished(p: Process<unknown>): void {
    this.live.delete(p);
  }

  /** @internal */
  noteCancelledPopped(): void {
    this.cancelledPopped++;
    this.cancelledQueued--;
  }

  /** @internal A queued callback was cancelled. Dropping the dead entries changes no pop order,
   *  and they count in no statistic (`eventsProcessed` leaves cancelled callbacks out). */
  noteCancelled(): void {
    if (++this.cancelledQueued > DROP_DEAD_AT && 2 * this.cancelledQueued > this.queue.size) {
      this.queue.dropDead();
      this.cancelledQueued = 0;
    }
  }
}

/** Cancelled callbacks queued before they are dropped at once: below it, popping them is cheaper. */
const DROP_DEAD_AT = 4096;

class ScheduledCall implements QueueEntry, Cancellable {
  private cancelled = false;

  constructor(
    private readonly sim: Simulation,
    private readonly fn: () => void,
  ) {}

  cancel(): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.sim.noteCancelled();
  }

  live(): boolean {
    return !this.cancelled;
  }

  fireEvent(): void {
    if (this.cancelled) {
      this.sim.noteCancelledPopped();
      return;
    }
    // Fired: a later cancel() has nothing left to cancel, nor a queued entry to count.
    this.cancelled = true;
    this.fn();
  }
}

function checkDelay(what: string, delay: number): void {
  if (!(Number.isFinite(delay) && delay >= 0)) {
    throw new RangeError(`${what}: delay must be a finite number >= 0 ns, got ${delay}`);
  }
}

// The clock is now itself; popped, cancelledPopped and cancelledQueued are statistics. The seeded generator's state is
// a closure: `draws` stands for it (a call that draws changes it, so its state is never taken as a repeat).
stateRules(Simulation, { clock: 'ignore', popped: 'ignore', cancelledPopped: 'ignore', cancelledQueued: 'ignore' });
