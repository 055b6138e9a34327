// A kernel spinlock whose cost under contention is where its cache line has to travel. Granting is
// FIFO (a ticket lock, or the MCS queue of a queued spinlock). Taking the lock moves its line from
// the core that held it last to the taker's core (topology lineLatency: the cache they share, the
// node's trip between cores sharing none, or a memory access across the links between their
// sockets), and the next waiter cannot enter before
// the line arrives, so that time is spent inside the serialised section. With a ticket lock every
// waiter spins on that same line: the release invalidates all their copies and their re-reads are
// served before the next holder's, so a hand-off also pays a share of the other waiters' line
// transfers (lock-costs.ts). This is the load spinning waiters put on the caches and links, charged
// as latency per hand-off instead of as a flow.
import { Fifo } from '../engine/fifo.ts';
import type { Program } from '../engine/program.ts';
import { Signal } from '../engine/signal.ts';
import type { LockKinds } from './lock-kinds.ts';

interface Waiter {
  core: number;
  grant: Signal<void>;
}

export class HandoffLock {
  private held = false;
  private lastCore: number | undefined;
  private readonly queue = new Fifo<Waiter>();
  /** Cores of the waiters, for the ticket lock's hand-off (a multiset, in queue order). */
  private readonly waitingCores: number[] = [];

  constructor(
    readonly name: string,
    private readonly kind: LockKinds['spinlock'],
    private readonly lineNs: (from: number, to: number) => number,
    private readonly ticketWaiterShare: number,
  ) {}

  /** Whether someone is queued behind the holder. */
  get contended(): boolean {
    return this.queue.length > 0;
  }

  /**
   * Takes the lock for `core`: queues behind earlier takers, then returns the ns the hand-off of
   * the lock's line costs, which the caller spends holding the lock.
   */
  *acquire(core: number): Program<number> {
    if (this.held || this.queue.length > 0) {
      const grant = new Signal<void>(`spinlock "${this.name}" (${this.queue.length + 1} waiting)`);
      this.queue.push({ core, grant });
      this.waitingCores.push(core);
      yield grant;
      this.waitingCores.splice(this.waitingCores.indexOf(core), 1);
    }
    this.held = true;
    const from = this.lastCore;
    this.lastCore = core;
    return from === undefined ? 0 : this.handoffNs(from, core);
  }

  release(): void {
    if (!this.held) throw new Error(`release of spinlock "${this.name}", which is not held`);
    const next = this.queue.shift();
    if (next === undefined) this.held = false;
    else next.grant.fire();
  }

  private handoffNs(from: number, to: number): number {
    const move = from === to ? 0 : this.lineNs(from, to);
    if (this.kind === 'queued') return move;
    let others = 0;
    for (const w of this.waitingCores) if (w !== from) others += this.lineNs(from, w);
    return move + this.ticketWaiterShare * others;
  }
}
