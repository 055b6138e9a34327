// Completion of a KNEM copy. A synchronous copy is complete when the call returns; an asynchronous
// one (kernel thread or I/OAT) writes its status word when done, and the caller polls that word
// (Goglin & Moreaud, JPDC 2013, §4.3: no blocking wait exists, MPI busy-polls).
import { Signal } from '../../engine/signal.ts';
import type { Program } from '../../engine/program.ts';
import type { KnemCopyHandle } from '../../node/rank-api.ts';
import type { World } from '../../node/world.ts';

export type CopyStatus = 'pending' | 'success' | 'error';

export const completedCopy: KnemCopyHandle = {
  poll: () => 'success',
  *wait(): Program<void> {},
};

export class AsyncCopy implements KnemCopyHandle {
  private status: CopyStatus = 'pending';
  private failure: unknown = undefined;
  private readonly done: Signal<void>;

  /**
   * @param statusReadNs what one read of the status word costs the caller: it was last written by
   *   whoever completed the copy, so the line comes from wherever that left it.
   */
  constructor(
    private readonly world: World,
    private readonly rank: number,
    private readonly label: string,
    private readonly statusReadNs: number,
  ) {
    this.done = new Signal<void>(`knem ${label} completion`);
  }

  /** Runs the copy in the background; its outcome lands in the status word. */
  start(copy: Program<void>): void {
    this.world.sim.spawn(`r${this.rank} ${this.label}`, this.run(copy));
  }

  private *run(copy: Program<void>): Program<void> {
    try {
      yield* copy;
      this.status = 'success';
    } catch (err) {
      this.status = 'error';
      this.failure = err;
    }
    this.done.fire();
  }

  /** One read of the status word. The interface gives poll() no simulated time to spend, so the
   *  read is recorded as an instant; `wait` charges the reads it makes. */
  poll(): CopyStatus {
    const now = this.world.sim.now;
    this.world.node.trace.record({
      rank: this.rank,
      kind: 'poll',
      label: `${this.label}: ${this.status}`,
      start: now,
      end: now,
      bytes: 0,
    });
    return this.status;
  }

  /** Busy-polls until the status word changes, then reads it; rethrows the copy's error. */
  *wait(): Program<void> {
    const start = this.world.sim.now;
    if (this.status === 'pending') yield this.done;
    if (this.statusReadNs > 0) yield* this.world.sim.sleep(this.statusReadNs);
    this.world.node.trace.record({
      rank: this.rank,
      kind: 'poll',
      label: `${this.label}: ${this.status}`,
      start,
      end: this.world.sim.now,
      bytes: 0,
    });
    if (this.status === 'error') throw this.failure;
  }
}
