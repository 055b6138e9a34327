// A FIFO mutex in simulated time. Unlock hands the lock straight to the oldest waiter, so nobody
// can barge in between and the order of grants is the order of requests.

import type { Process } from './process.ts';
import type { Program } from './program.ts';
import { Fifo } from './fifo.ts';
import { LiveSignal } from './signal.ts';
import type { Simulation } from './simulation.ts';
import { stateRules } from '../../common/state-fingerprint.ts';

interface MutexWaiter {
  process: Process<unknown> | undefined;
  grant: LiveSignal<void>;
}

export class Mutex {
  private held = false;
  private holder: Process<unknown> | undefined = undefined;
  private readonly waiters = new Fifo<MutexWaiter>();
  private waitNs = 0;

  constructor(
    private readonly sim: Simulation,
    readonly name: string,
  ) {}

  get locked(): boolean {
    return this.held;
  }

  get queueLength(): number {
    return this.waiters.length;
  }

  /** Accumulated time processes spent waiting in lock(), for contention metrics. */
  get totalWaitNs(): number {
    return this.waitNs;
  }

  /** Whether `process` holds the lock. */
  heldBy(process: Process<unknown> | undefined): boolean {
    return this.held && process !== undefined && this.holder === process;
  }

  /** The holding process, when the lock was taken from inside one. */
  get holderName(): string | undefined {
    return this.holder?.name;
  }

  /** Takes the lock if it is free, at once; false, taking nothing, when it is held. `lock()` does
   *  the same without a generator to run when the caller can go on at once (the common case). */
  tryLock(): boolean {
    if (this.held) return false;
    this.held = true;
    this.holder = this.sim.currentProcess;
    return true;
  }

  /** Takes the lock; when it is free this returns without suspending. */
  *lock(): Program<void> {
    const me = this.sim.currentProcess;
    if (!this.held) {
      this.held = true;
      this.holder = me;
      return;
    }
    if (me !== undefined && me === this.holder) {
      throw new Error(`process "${me.name}" locked mutex "${this.name}" it already holds`);
    }
    const grant = new LiveSignal<void>(() => this.describe());
    this.waiters.push({ process: me, grant });
    const start = this.sim.now;
    yield grant;
    this.waitNs += this.sim.now - start;
  }

  unlock(): void {
    if (!this.held) throw new Error(`unlock of mutex "${this.name}", which is not locked`);
    const caller = this.sim.currentProcess;
    if (caller !== undefined && this.holder !== undefined && caller !== this.holder) {
      throw new Error(`process "${caller.name}" unlocked mutex "${this.name}" held by "${this.holder.name}"`);
    }
    const next = this.waiters.shift();
    if (next === undefined) {
      this.held = false;
      this.holder = undefined;
    } else {
      this.holder = next.process;
      next.grant.fire();
    }
  }

  private describe(): string {
    const by = this.holder === undefined ? '' : ` held by "${this.holder.name}"`;
    return `mutex "${this.name}"${by}`;
  }
}

// Accumulated wait, a statistic no model reads.
stateRules(Mutex, { waitNs: 'ignore' });
