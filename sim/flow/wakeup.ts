// One completion event shared by all the flows a re-solve touched, set for the earliest of their
// finish times. A re-solve that moves k flows then costs one queue entry instead of k, which is
// most of the cost of a change once components are small. A flow re-solved later moves to a newer
// wakeup; a wakeup that no flow points at any more is cancelled.

import type { Cancellable } from '../engine/waitable.ts';
import type { FlowState } from './flow.ts';

export class Wakeup {
  readonly flows: FlowState[];
  /** How many of `flows` still point here. */
  live: number;
  event: Cancellable | undefined = undefined;

  constructor(flows: FlowState[]) {
    this.flows = flows;
    this.live = flows.length;
  }

  /** A flow stops pointing here (re-solved elsewhere or finished). */
  drop(): void {
    if (--this.live === 0) {
      this.event?.cancel();
      this.event = undefined;
    }
  }
}
