// One flow at run time. Progress is kept as (bytes remaining at `updatedAt`, rate since then), so
// `remaining()` is exact at any instant without touching the flow on every clock tick.
//
// The bottleneck is kept the same way: the current one and since when. Time is booked per resource
// only when the bottleneck changes, so a flow bounded by one resource all its life (the usual case)
// never allocates for it.

import type { Flow } from './network.ts';
import type { ResourceState } from './resource.ts';
import type { Wakeup } from './wakeup.ts';
import { CANONICAL_STATE, stateRules, type HasCanonicalState } from '../../common/state-fingerprint.ts';

export type FlowPhase = 'latency' | 'active' | 'done';

export class FlowState implements Flow, HasCanonicalState {
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
  /** The resource whose saturation holds the rate now; undefined in the latency phase and once done. */
  bottleneck: ResourceState | undefined = undefined;
  private bottleneckSince = 0;
  /** Time spent bounded by each earlier bottleneck, kept only once the bottleneck has changed. */
  private boundOn: ResourceState[] | undefined = undefined;
  private boundNs: number[] | undefined = undefined;
  private main: ResourceState | undefined = undefined;
  private readonly clock: { readonly now: number };
  /** Who waits for the end: null while nobody has asked (most flows have one waiter, added late),
   *  undefined once released. */
  private waiters: ((value: void) => void)[] | null | undefined = null;

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

  [CANONICAL_STATE](): unknown {
    return this.finishedAt === undefined ? this : 'finished flow';
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
    else if (this.waiters === null) this.waiters = [cb];
    else this.waiters.push(cb);
  }

  /** The re-solve at `now` found `r` bounding this flow. */
  boundBy(r: ResourceState, now: number): void {
    const was = this.bottleneck;
    if (r === was) return;
    if (was !== undefined) this.book(was, now - this.bottleneckSince);
    this.bottleneck = r;
    this.bottleneckSince = now;
  }

  private book(r: ResourceState, ns: number): void {
    if (!(ns > 0)) return;
    if (this.boundOn === undefined || this.boundNs === undefined) {
      this.boundOn = [r];
      this.boundNs = [ns];
      return;
    }
    const at = this.boundOn.indexOf(r);
    if (at >= 0) this.boundNs[at] += ns;
    else {
      this.boundOn.push(r);
      this.boundNs.push(ns);
    }
  }

  /** The resource that bounded this flow for the longest time, once it is done (earliest on ties);
   *  undefined before, and for a flow that carried no bytes. */
  mainBottleneck(): ResourceState | undefined {
    return this.main;
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
    this.closeBottleneck(now);
  }

  private closeBottleneck(now: number): void {
    const last = this.bottleneck;
    this.bottleneck = undefined;
    if (last === undefined) return;
    if (this.boundOn === undefined) {
      this.main = last;
      return;
    }
    this.book(last, now - this.bottleneckSince);
    const on = this.boundOn;
    const ns = this.boundNs!;
    let best = 0;
    for (let i = 1; i < on.length; i++) if (ns[i] > ns[best]) best = i;
    this.main = on[best];
    this.boundOn = undefined;
    this.boundNs = undefined;
  }

  /** Runs the waiters, in registration order. */
  release(): void {
    const waiters = this.waiters;
    this.waiters = undefined;
    if (waiters) for (const cb of waiters) cb();
  }
}

// A flow's id orders it only among flows made in the same order; visit is a walk stamp; its times
// are absolute. A finished flow is kept by some models only to be told apart from a live one.
stateRules(FlowState, {
  id: 'ignore',
  visit: 'ignore',
  startedAt: 'time',
  finishedAt: 'time',
  updatedAt: 'time',
  finishAt: 'time',
  bottleneckSince: 'time',
});
