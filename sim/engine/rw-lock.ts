// A reader-writer lock in simulated time, strictly FIFO: readers at the head of the queue are let
// in together, a writer waits for the readers ahead of it and blocks the ones behind it (no writer
// starvation, as with Linux's rw_semaphore handing off to a queued writer).
import { Fifo } from './fifo.ts';
import type { Program } from './program.ts';
import { Signal } from './signal.ts';
import type { Simulation } from './simulation.ts';
import { stateRules } from '../../common/state-fingerprint.ts';

type Mode = 'shared' | 'exclusive';

interface Waiter {
  mode: Mode;
  grant: Signal<void>;
}

export class RwLock {
  private readers = 0;
  private writer = false;
  private readonly queue = new Fifo<Waiter>();
  private waitNs = 0;

  constructor(
    private readonly sim: Simulation,
    readonly name: string,
  ) {}

  get totalWaitNs(): number {
    return this.waitNs;
  }

  get activeReaders(): number {
    return this.readers;
  }

  get writeLocked(): boolean {
    return this.writer;
  }

  *lockShared(): Program<void> {
    if (!this.writer && this.queue.length === 0) {
      this.readers++;
      return;
    }
    yield* this.enqueue('shared');
  }

  *lockExclusive(): Program<void> {
    if (!this.writer && this.readers === 0 && this.queue.length === 0) {
      this.writer = true;
      return;
    }
    yield* this.enqueue('exclusive');
  }

  unlockShared(): void {
    if (this.readers === 0) throw new Error(`shared unlock of "${this.name}", which no reader holds`);
    this.readers--;
    this.grant();
  }

  unlockExclusive(): void {
    if (!this.writer) throw new Error(`exclusive unlock of "${this.name}", which no writer holds`);
    this.writer = false;
    this.grant();
  }

  private *enqueue(mode: Mode): Program<void> {
    const grant = new Signal<void>(
      `${mode} lock of "${this.name}" (${this.writer ? 'writer' : `${this.readers} readers`} inside)`,
    );
    this.queue.push({ mode, grant });
    const start = this.sim.now;
    yield grant;
    this.waitNs += this.sim.now - start;
  }

  /** Hands the lock to the head of the queue: every consecutive reader, or one writer. */
  private grant(): void {
    while (!this.writer) {
      const head = this.queue.peek();
      if (head === undefined) return;
      if (head.mode === 'exclusive') {
        if (this.readers > 0) return;
        this.queue.shift();
        this.writer = true;
        head.grant.fire();
        return;
      }
      this.queue.shift();
      this.readers++;
      head.grant.fire();
    }
  }
}

// Accumulated wait, a statistic no model reads.
stateRules(RwLock, { waitNs: 'ignore' });
