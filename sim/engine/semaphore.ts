// A counting semaphore, strictly FIFO: a large request at the head blocks smaller ones behind it,
// so no waiter starves.

import type { Program } from './program.ts';
import { Fifo } from './fifo.ts';
import { LiveSignal } from './signal.ts';
import type { Simulation } from './simulation.ts';
import { stateRules } from '../../common/state-fingerprint.ts';

interface SemaphoreWaiter {
  n: number;
  grant: LiveSignal<void>;
}

export class Semaphore {
  private permits: number;
  private readonly waiters = new Fifo<SemaphoreWaiter>();
  private waitNs = 0;

  constructor(
    private readonly sim: Simulation,
    readonly name: string,
    permits: number,
  ) {
    checkCount(`semaphore "${name}" permits`, permits, true);
    this.permits = permits;
  }

  get available(): number {
    return this.permits;
  }

  get queueLength(): number {
    return this.waiters.length;
  }

  /** Accumulated time processes spent waiting in acquire(). */
  get totalWaitNs(): number {
    return this.waitNs;
  }

  *acquire(n = 1): Program<void> {
    checkCount(`semaphore "${this.name}" acquire`, n, false);
    if (this.waiters.length === 0 && this.permits >= n) {
      this.permits -= n;
      return;
    }
    const grant = new LiveSignal<void>(() => `semaphore "${this.name}" (${n} wanted, ${this.permits} available)`);
    this.waiters.push({ n, grant });
    const start = this.sim.now;
    yield grant;
    this.waitNs += this.sim.now - start;
  }

  release(n = 1): void {
    checkCount(`semaphore "${this.name}" release`, n, false);
    this.permits += n;
    for (let head = this.waiters.peek(); head !== undefined && head.n <= this.permits; head = this.waiters.peek()) {
      this.waiters.shift();
      this.permits -= head.n;
      head.grant.fire();
    }
  }
}

function checkCount(what: string, n: number, zeroOk: boolean): void {
  if (!Number.isInteger(n) || n < (zeroOk ? 0 : 1)) {
    throw new RangeError(`${what}: expected an integer >= ${zeroOk ? 0 : 1}, got ${n}`);
  }
}

// Accumulated wait, a statistic no model reads.
stateRules(Semaphore, { waitNs: 'ignore' });
