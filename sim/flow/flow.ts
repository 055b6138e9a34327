// One flow at run time. Progress is kept as (bytes remaining at `updatedAt`, rate since then), so
// `remaining()` is exact at any instant without touching the flow on every clock tick.

import type { Flow } from './network.ts';
import type { ResourceState } from './resource.ts';
import type { Wakeup } from './wakeup.ts';

export type FlowPhase = 'latency' | 'active' | 'done';

export class FlowState implements Flow {
  readonly id: number;
  readonly label: string;
  readonly bytes: number;
  readonly startedAt: number;
  finishedAt: number | undefined = undefined;
  rate = 0;
  phase: FlowPhase = 'latency';
  /** Distinct resources crossed, with the summed weight of each and this flow's slot in its list. */
  readonly resources: ResourceState[];
  readonly weights: number[];
  readonly slots: number[];
  remainingAt: number;
  updatedAt: number;
  /** When the flow ends at its current rate. */
  finishAt = Infinity;
  /** The completion event that covers this flow while it is active. */
  wakeup: Wakeup | undefined = undefined;
  /** Scratch for graph walks. */
  visit = 0;
  private readonly clock: { readonly now: number };
  private waiters: ((value: void) => void)[] | undefined = [];

  constructor(
    id: number,
    label: string,
    bytes: number,
    resources: ResourceState[],
    weights: number[],
    clock: { readonly now: number },
  ) {
    this.id = id;
    this.label = label;
    this.bytes = bytes;
    this.resources = resources;
    this.weights = weights;
    this.slots = new Array<number>(resources.length).fill(-1);
    this.clock = clock;
    this.startedAt = clock.now;
    this.remainingAt = bytes;
    this.updatedAt = clock.now;
  }

  get description(): string {
    return `flow ${this.label} (${this.bytes} B over ${this.resources.map((r) => r.name).join(', ')})`;
  }

  remaining(): number {
    if (this.phase !== 'active') return this.phase === 'done' ? 0 : this.bytes;
    return Math.max(0, this.remainingAt - this.rate * (this.clock.now - this.updatedAt));
  }

  /** Books progress at the current rate up to `now`; call before the rate changes. */
  advance(now: number): void {
    this.remainingAt = Math.max(0, this.remainingAt - this.rate * (now - this.updatedAt));
    this.updatedAt = now;
  }

  onFire(cb: (value: void) => void): void {
    if (this.waiters === undefined) cb();
    else this.waiters.push(cb);
  }

  /** Marks the flow done at `now`. Its waiters run later, in `release`, once the network that
   *  finished it is consistent again (a waiter may start new flows). */
  finish(now: number): void {
    this.phase = 'done';
    this.rate = 0;
    this.remainingAt = 0;
    this.updatedAt = now;
    this.finishedAt = now;
    this.finishAt = Infinity;
    this.wakeup?.drop();
    this.wakeup = undefined;
  }

  /** Runs the waiters, in registration order. */
  release(): void {
    const waiters = this.waiters ?? [];
    this.waiters = undefined;
    for (const cb of waiters) cb();
  }
}
