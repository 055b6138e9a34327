// One capacity-limited resource at run time: the flows crossing it now, and the bytes it has
// carried. Bytes are counted lazily: between re-solves the load is constant, so the carried total
// is settled only when a re-solve touching this resource is about to change the load.

import type { Resource } from './network.ts';
import type { FlowState } from './flow.ts';
import { stateRules } from '../../common/state-fingerprint.ts';

export class ResourceState implements Resource {
  readonly id: number;
  readonly name: string;
  readonly capacity: number;
  /** Active flows crossing this resource; removal swaps the last one in. */
  readonly flows: FlowState[] = [];
  /** Sum of weight * rate over `flows`: as the last re-solve touching it set it, less the shares of
   *  flows finished since (0 once none is left). */
  load = 0;
  /** Scratch for graph walks and solves: the walk that last visited it and its index there. */
  visit = 0;
  local = 0;
  private carried = 0;
  private settledAt = 0;
  private readonly clock: { readonly now: number };

  constructor(id: number, name: string, capacity: number, clock: { readonly now: number }) {
    this.id = id;
    this.name = name;
    this.capacity = capacity;
    this.clock = clock;
    this.settledAt = clock.now;
  }

  get bytesCarried(): number {
    return this.carried + this.load * (this.clock.now - this.settledAt);
  }

  flowLabels(): string[] {
    return this.flows.map((f) => f.label);
  }

  get activeFlows(): number {
    return this.flows.length;
  }

  /** Books the bytes carried at the current load up to `now`; call before the load changes. */
  settle(now: number): void {
    this.carried += this.load * (now - this.settledAt);
    this.settledAt = now;
  }
}

// visit and local are walk scratch (a stamp and an index); carried and settledAt count bytes for
// reports and load series, never read by the solver.
stateRules(ResourceState, { visit: 'ignore', local: 'ignore', carried: 'ignore', settledAt: 'ignore' });
