// Fluid bandwidth sharing: flows cross capacity-limited resources and share them max-min fairly.
// Rates are piecewise constant between starts and finishes; each change re-solves only the flows
// whose rates it can move (component.ts: the new flows and those coupled to the change through
// saturated resources), advances those flows' progress to now, and reschedules their completion
// (one shared wakeup per re-solve, see wakeup.ts). Each resource's load stays the sum of its flows'
// shares: a re-solve sets it for the resources it touches, a finish takes the flow's share off.
//
// Rates matter only once time passes, so the changes of one instant are re-solved together, at its
// end (Scheduler.atEndOfInstant): when many copies start at the same time (every rank of a step
// of a collective), their component is solved once instead of once per start. A scheduler without
// that hook gets every change solved at once.

import type { Scheduler, Waitable } from '../engine/waitable.ts';
import { ComponentWalker, saturated, type Component } from './component.ts';
import { FlowState } from './flow.ts';
import { MaxMinScratch, solveMaxMinCsr } from './maxmin.ts';
import { ResourceState } from './resource.ts';
import { Wakeup } from './wakeup.ts';
import { stateRules } from '../../common/state-fingerprint.ts';

export interface Resource {
  readonly id: number;
  readonly name: string;
  readonly capacity: number;
  /** Bytes that have crossed this resource (weighted), for utilisation metrics. */
  readonly bytesCarried: number;
  readonly activeFlows: number;
  /** Bytes/ns crossing it now (weighted): its flows' shares as the latest re-solve that touched it
   *  set them, less those of the flows finished since. */
  readonly load: number;
  /** The labels of the flows crossing it now. */
  flowLabels(): string[];
}

/** Told, after every re-solve and every batch of finishes, the resources whose load it may have
 *  changed (load-recorder.ts). */
export type LoadListener = (resources: readonly Resource[], now: number) => void;

/** weight defaults to 1: a flow at rate r consumes weight*r of the resource. */
export interface FlowUse {
  resource: Resource;
  weight?: number;
}

export interface FlowRequest {
  bytes: number;
  uses: FlowUse[];
  latency?: number;
  label?: string;
}

export interface Flow extends Waitable<void> {
  readonly id: number;
  readonly label: string;
  readonly bytes: number;
  /** Current bytes/ns (0 while in its latency phase). */
  readonly rate: number;
  /** When `start` was called; the latency phase counts as part of the flow. */
  readonly startedAt: number;
  readonly finishedAt: number | undefined;
  /** Bytes left now. */
  remaining(): number;
  /**
   * The resource whose saturation holds this flow's rate now (max-min: saturated, and no flow
   * crossing it runs faster), as found by the latest re-solve; undefined during the latency phase
   * and once done.
   */
  readonly bottleneck: Resource | undefined;
  /** Once done, the resource that was the bottleneck for the longest time; undefined before, and
   *  for a flow that carried no bytes. */
  mainBottleneck(): Resource | undefined;
}

export interface FlowNetworkStats {
  /** Re-solves run. With an end-of-instant hook, the changes of an instant (flows joining, a batch of
   *  finishes that leaves flows to solve again) share one; without, each start has its own. */
  solves: number;
  /** Flows whose rates those re-solves computed, summed. */
  flowsResolved: number;
  /** Rounds in which a re-solve took in more flows and solved again (component.ts, `widen`). */
  widenings: number;
}

/**
 * A flow whose remaining bytes are within this fraction of its size is done. Rates times durations
 * rarely land on exactly zero in floating point; without this a flow could be rescheduled a few
 * ulps later, again and again. A numerical tolerance, not a model constant.
 */
const DONE_REL = 1e-9;

/**
 * A finish time within this fraction of now counts as now: a delay computed as (finish - now) and
 * added back by the scheduler can land an ulp or two early. Also a numerical tolerance.
 */
const SAME_INSTANT_REL = 4 * Number.EPSILON;

export class FlowNetwork {
  readonly stats: FlowNetworkStats = { solves: 0, flowsResolved: 0, widenings: 0 };
  private readonly scheduler: Scheduler;
  private readonly list: ResourceState[] = [];
  private readonly byName = new Map<string, ResourceState>();
  private readonly walker = new ComponentWalker();
  /** Flows to re-solve at the end of this instant (new ones, finished ones a wakeup found, the rest
   *  of a part whose flows finished), and saturated resources a finished flow left; spare lists. */
  private touched: FlowState[] = [];
  private spareTouched: FlowState[] = [];
  private freed: ResourceState[] = [];
  private spareFreed: ResourceState[] = [];
  /** Wakeups that fired on finished flows and may still cover flows of other components. */
  private readonly rearm: Wakeup[] = [];
  /** A flush's finished and continuing flows of the part it walked: lists kept, emptied after use. */
  private readonly done: FlowState[] = [];
  private readonly going: FlowState[] = [];
  /** A re-solve is queued for the end of the instant, or running (changes then join it). */
  private flushQueued = false;
  private flushing = false;
  private readonly flushFn = (): void => this.flush();
  private nextFlowId = 0;
  private active = 0;
  private loadListener: LoadListener | undefined = undefined;
  /** The solver's arrays, grown as needed and reused across re-solves. */
  private readonly scratch = new MaxMinScratch();
  /** Per resource of the part being solved: the load of the flows outside it, the part's flows
   *  crossing it, and the load the part's new rates give it (grown as needed). */
  private outside = new Float64Array(16);
  private insideCount = new Int32Array(16);
  private partLoad = new Float64Array(16);
  /** Whether some resource of the part being solved carries flows outside it. */
  private shared = false;
  /** What `newlySaturated` found, read at once by the walker's `widen`; the list is reused. */
  private readonly widenScratch: ResourceState[] = [];
  /** The compressed-row view of the flows being re-solved, over the scratch arrays. */
  private readonly csr = {
    flowCount: 0,
    flowStart: this.scratch.flowStart,
    useResource: this.scratch.useResource,
    useWeight: this.scratch.useWeight,
  };

  constructor(scheduler: Scheduler) {
    this.scheduler = scheduler;
  }

  get resources(): readonly Resource[] {
    return this.list;
  }

  get activeFlowCount(): number {
    return this.active;
  }

  /** Registers the one listener of load changes (a recorder of utilisation over time). */
  onLoadChange(listener: LoadListener | undefined): void {
    this.loadListener = listener;
  }

  addResource(name: string, capacity: number): Resource {
    if (typeof name !== 'string' || name === '') {
      throw new RangeError('FlowNetwork.addResource: a resource needs a non-empty name');
    }
    if (this.byName.has(name)) {
      throw new RangeError(`FlowNetwork.addResource: a resource named "${name}" already exists`);
    }
    if (typeof capacity !== 'number' || !(capacity > 0) || !Number.isFinite(capacity)) {
      throw new RangeError(
        `FlowNetwork.addResource: capacity of "${name}" must be a positive finite number of bytes/ns, got ${capacity}`,
      );
    }
    const r = new ResourceState(this.list.length, name, capacity, this.scheduler);
    this.list.push(r);
    this.byName.set(name, r);
    return r;
  }

  resource(name: string): Resource | undefined {
    return this.byName.get(name);
  }

  start(req: FlowRequest): Flow {
    const label = req.label ?? `flow#${this.nextFlowId}`;
    const latency = req.latency ?? 0;
    checkAmounts(label, req.bytes, latency);
    if (!Array.isArray(req.uses) || req.uses.length === 0) {
      throw startError(label, `a flow must use at least one resource, or nothing bounds its rate`);
    }
    // A resource listed twice counts once, with the weights added: the flow loads it twice over.
    const resources: ResourceState[] = [];
    const weights: number[] = [];
    for (let i = 0; i < req.uses.length; i++) {
      const use = req.uses[i];
      if (use === undefined || use === null) throw startError(label, `uses[${i}] is missing`);
      const r = use.resource instanceof ResourceState ? use.resource : undefined;
      if (r === undefined || this.list[r.id] !== r) {
        throw startError(label, `uses[${i}] names a resource that does not belong to this network`);
      }
      const w = use.weight ?? 1;
      if (typeof w !== 'number' || !(w > 0) || !Number.isFinite(w)) {
        throw startError(label, `uses[${i}].weight must be a positive finite number, got ${w}`);
      }
      const at = resources.indexOf(r);
      if (at >= 0) weights[at] += w;
      else {
        resources.push(r);
        weights.push(w);
      }
    }
    return this.launch(label, req.bytes, latency, resources, weights);
  }

  /**
   * `start` for a flow whose uses are a map from resource to weight (each resource once, as a map
   * holds it), read in the map's order without a list of uses made for it: a node's copy gives its
   * shares so, and a share that is not positive (of no bytes) is left out.
   */
  startMapped(bytes: number, uses: ReadonlyMap<Resource, number>, latency: number, label: string): Flow {
    checkAmounts(label, bytes, latency);
    const resources: ResourceState[] = [];
    const weights: number[] = [];
    let bad: string | undefined;
    uses.forEach((w, use) => {
      if (!(w > 0) || bad !== undefined) return;
      const r = use instanceof ResourceState ? use : undefined;
      if (r === undefined || this.list[r.id] !== r) bad = `a use names a resource that does not belong to this network`;
      else if (!Number.isFinite(w)) bad = `the weight of ${r.name} must be a positive finite number, got ${w}`;
      else {
        resources.push(r);
        weights.push(w);
      }
    });
    if (bad !== undefined) throw startError(label, bad);
    if (resources.length === 0) {
      throw startError(label, `a flow must use at least one resource, or nothing bounds its rate`);
    }
    return this.launch(label, bytes, latency, resources, weights);
  }

  /** A checked flow: numbered, then joining the network now or once its latency has passed. */
  private launch(label: string, bytes: number, latency: number, resources: ResourceState[], weights: number[]): Flow {
    const id = this.nextFlowId++;
    const flow = new FlowState(id, label, bytes, resources, weights, this.scheduler);
    if (bytes === 0) {
      // Nothing to carry: the flow is its latency alone, and never loads a resource.
      this.scheduler.schedule(latency, () => {
        flow.finish(this.scheduler.now);
        flow.release();
      });
    } else if (latency > 0) {
      this.scheduler.schedule(latency, () => this.join(flow));
    } else {
      this.join(flow);
    }
    return flow;
  }

  private join(flow: FlowState): void {
    flow.phase = 'active';
    flow.remainingAt = flow.bytes;
    flow.updatedAt = this.scheduler.now;
    for (let i = 0; i < flow.resources.length; i++) {
      const r = flow.resources[i];
      flow.slots[i] = r.flows.length;
      r.flows.push(flow);
    }
    this.active++;
    this.touched.push(flow);
    this.requestFlush();
  }

  private requestFlush(): void {
    if (this.flushQueued || this.flushing) return;
    if (this.scheduler.atEndOfInstant) {
      this.flushQueued = true;
      this.scheduler.atEndOfInstant(this.flushFn);
    } else this.flush();
  }

  /**
   * Re-solves the changed components. Flows done by now are finished first and their waiters run;
   * with an end-of-instant hook the re-solve then waits for the end of the instant again, so that
   * what the waiters start at this instant joins it.
   */
  private flush(): void {
    this.flushQueued = false;
    this.flushing = true;
    const now = this.scheduler.now;
    for (;;) {
      const touched = this.touched;
      const freed = this.freed;
      this.touched = this.spareTouched;
      this.freed = this.spareFreed;
      const part = this.walker.collect(touched, freed);
      touched.length = 0;
      freed.length = 0;
      this.spareTouched = touched;
      this.spareFreed = freed;
      // Nothing to re-solve (a batch of finishes whose waiters started nothing at this instant):
      // what is left to do is re-arming wakeups, below.
      if (part.flows.length === 0) break;
      this.settle(part);
      const done = this.done;
      const going = this.going;
      for (const f of part.flows) (this.isDone(f, now) ? done : going).push(f);
      if (done.length === 0) {
        going.length = 0;
        this.solve(part);
        break;
      }
      for (const f of done) {
        this.detach(f);
        f.finish(now);
      }
      this.active -= done.length;
      // The finished flows' shares are off their resources' loads now, solved again or not.
      if (this.loadListener) this.loadListener([...new Set(done.flatMap((f) => f.resources))], now);
      // What is left of this part is solved with what the waiters start.
      for (const f of going) this.touched.push(f);
      going.length = 0;
      if (done.length > 1) done.sort(byId);
      // A waiter may start flows but never a flush (this one holds `flushing`), so the list stays
      // as it is while they run; emptied after, it keeps no finished flow alive.
      for (const f of done) f.release();
      done.length = 0;
      if (this.scheduler.atEndOfInstant) {
        this.flushing = false;
        this.requestFlush();
        return;
      }
    }
    this.flushing = false;
    // Wakeups that covered flows of other components than those just solved are set again.
    for (const w of this.rearm) if (w.live > 0 && w.event === undefined) this.arm(w, now);
    this.rearm.length = 0;
  }

  /** Sets `w` for the earliest finish among the flows it still covers. */
  private arm(w: Wakeup, now: number): void {
    let next = Infinity;
    for (const f of w.flows) if (f.wakeup === w && f.finishAt < next) next = f.finishAt;
    w.event = this.scheduler.schedule(Math.max(0, next - now), () => this.wake(w));
  }

  /** Whether `f` has reached its end by `now`, allowing for rounding in times and bytes. */
  private isDone(f: FlowState, now: number): boolean {
    return f.finishAt <= now * (1 + SAME_INSTANT_REL) || f.remaining() <= DONE_REL * f.bytes;
  }

  /**
   * A wakeup fired. If any flow it still covers is done, its components are re-solved (every done
   * flow of them finished first, in one batch); if not (the earliest flow moved to a newer wakeup),
   * it is set again for the earliest flow it still covers.
   */
  private wake(w: Wakeup): void {
    w.event = undefined;
    const now = this.scheduler.now;
    let finished = false;
    for (const f of w.flows) {
      if (f.wakeup === w && this.isDone(f, now)) {
        finished = true;
        this.touched.push(f);
      }
    }
    if (finished) {
      // Flows of other components that this wakeup still covers need it again, once the re-solve
      // has moved those of the finished flows' components to a wakeup of their own.
      this.rearm.push(w);
      this.requestFlush();
      return;
    }
    if (w.live > 0) this.arm(w, now);
  }

  /** Books resources' carried bytes and flows' progress up to now, before rates change. */
  private settle(part: Component): void {
    const now = this.scheduler.now;
    for (const r of part.resources) r.settle(now);
    for (const f of part.flows) f.advance(now);
  }

  /** Takes a finished flow off its resources, and its share off their loads (they were settled up
   *  to now); a resource it leaves saturated has capacity freed for the flows still on it. */
  private detach(f: FlowState): void {
    for (let i = 0; i < f.resources.length; i++) {
      const r = f.resources[i];
      if (saturated(r)) this.freed.push(r);
      // The last flow off a resource leaves it idle: exactly 0, not the rounding of the subtractions.
      r.load = r.flows.length === 1 ? 0 : Math.max(0, r.load - f.rate * f.weights[i]);
      const slot = f.slots[i];
      const last = r.flows.pop()!;
      if (last !== f) {
        r.flows[slot] = last;
        last.slots[last.resources.indexOf(r)] = slot;
      }
      f.slots[i] = -1;
    }
  }

  /**
   * Re-solves the part's flows on what the flows outside it leave of each resource, widening the
   * part where the solve saturates a resource those share (component.ts), then reschedules them and
   * sets the loads of the resources they cross.
   */
  private solve(first: Component): void {
    let part = first;
    let rates: Float64Array;
    for (;;) {
      rates = this.solvePart(part);
      const widen = this.newlySaturated(part);
      if (widen.length === 0) break;
      // Every such resource at once: one more solve per round, not one per resource. (A flow taken
      // in that ends at this very instant is solved too, and ends an instant-free moment later.)
      part = this.walker.widen(widen);
      this.settle(part);
      this.stats.widenings++;
    }
    const { flows, resources } = part;
    this.stats.solves++;
    this.stats.flowsResolved += flows.length;
    const bottleneck = this.scratch.bottleneck;
    const now = this.scheduler.now;
    let firstFinish = Infinity;
    for (let i = 0; i < flows.length; i++) {
      const f = flows[i];
      const rate = rates[i];
      if (!(rate > 0) || !Number.isFinite(rate)) {
        throw new Error(`flow solver: ${f.description} got rate ${rate}; every flow must progress`);
      }
      // An unchanged rate keeps its finish time, so repeated re-solves do not accumulate rounding.
      if (rate !== f.rate || f.finishAt === Infinity) {
        f.rate = rate;
        f.finishAt = now + f.remainingAt / rate;
      }
      const b = resources[bottleneck[i]];
      if (b !== f.bottleneck) f.boundBy(b, now);
      if (f.finishAt < firstFinish) firstFinish = f.finishAt;
    }
    if (flows.length > 0) {
      // The walk's list is its own, reused by the next walk: the wakeup keeps a copy.
      const w = new Wakeup(flows.slice());
      for (const f of flows) {
        f.wakeup?.drop();
        f.wakeup = w;
      }
      w.event = this.scheduler.schedule(Math.max(0, firstFinish - now), () => this.wake(w));
    }
    // A resource's load: what the flows outside the part put on it, and the part's new shares, as
    // the last check for newly saturated resources summed them.
    const load = this.partLoad;
    for (let i = 0; i < resources.length; i++) resources[i].load = load[i];
    this.loadListener?.(resources, now);
  }

  /**
   * Max-min rates of the part's flows, each resource offering its capacity less the load of the
   * flows crossing it outside the part (kept in `outside`, by the resource's index in the part).
   */
  private solvePart(part: Component): Float64Array {
    const { flows, resources } = part;
    let uses = 0;
    for (const f of flows) uses += f.resources.length;
    const scratch = this.scratch;
    scratch.reserve(resources.length, flows.length, uses);
    if (this.outside.length < resources.length) {
      this.outside = new Float64Array(Math.max(resources.length, 2 * this.outside.length));
      this.insideCount = new Int32Array(this.outside.length);
    }
    const outside = this.outside;
    const insideCount = this.insideCount;
    for (let i = 0; i < resources.length; i++) {
      const r = resources[i];
      r.local = i;
      outside[i] = r.load;
      insideCount[i] = 0;
    }
    const g = this.csr;
    g.flowCount = flows.length;
    const flowStart = (g.flowStart = scratch.flowStart);
    const useResource = (g.useResource = scratch.useResource);
    const useWeight = (g.useWeight = scratch.useWeight);
    const bottleneck = scratch.bottleneck;
    let k = 0;
    for (let i = 0; i < flows.length; i++) {
      const f = flows[i];
      flowStart[i] = k;
      for (let j = 0; j < f.resources.length; j++) {
        const local = f.resources[j].local;
        useResource[k] = local;
        useWeight[k] = f.weights[j];
        outside[local] -= f.rate * f.weights[j];
        insideCount[local]++;
        k++;
      }
      // The current bottleneck is one of the flow's own resources, so its local index was just
      // set; preferring it on a tie keeps the attribution from flipping between equally saturated
      // resources.
      const b = f.bottleneck;
      bottleneck[i] = b === undefined ? -1 : b.local;
    }
    flowStart[flows.length] = k;
    const capacity = scratch.capacity;
    this.shared = false;
    for (let i = 0; i < resources.length; i++) {
      // A resource all of whose flows are in the part offers all of itself; the subtraction above
      // leaves rounding there, not load.
      if (insideCount[i] === resources[i].flows.length) outside[i] = 0;
      else {
        outside[i] = Math.max(0, outside[i]);
        this.shared = true;
      }
      capacity[i] = resources[i].capacity - outside[i];
    }
    return solveMaxMinCsr(capacity, g, bottleneck, scratch);
  }

  /** The resources the part shares with flows outside it that the last solve saturated; every
   *  resource's load under its rates is left in `partLoad`: what the flows outside put on it, and
   *  the part's shares, as the solver summed them when it froze each flow (`frozenLoad`). */
  private newlySaturated(part: Component): ResourceState[] {
    const found = this.widenScratch;
    found.length = 0;
    const { resources } = part;
    const load =
      this.partLoad.length >= resources.length
        ? this.partLoad
        : (this.partLoad = new Float64Array(2 * resources.length));
    // The solver numbered the part's resources 0..n-1 as solvePart listed them, and every one of
    // them carries a flow of the part (the walk lists only resources its flows cross), so its
    // frozenLoad covers each of them.
    const frozenLoad = this.scratch.frozenLoad;
    for (let i = 0; i < resources.length; i++) load[i] = this.outside[i] + frozenLoad[i];
    if (!this.shared) return found;
    for (let i = 0; i < resources.length; i++) {
      const r = resources[i];
      if (this.insideCount[i] < r.flows.length && saturated(r, load[i])) found.push(r);
    }
    return found;
  }
}

// Statistics; flow ids only order the flows that finish together, which a replay makes in the same
// order; the solver's scratch and its compressed-row view are rewritten by every solve before they
// are read (but for round numbers compared for equality with a newer round).
// The lists of the changes of an instant are empty between instants (the spare ones always); the
// per-part arrays are rewritten by every solve before they are read.
stateRules(FlowNetwork, {
  stats: 'ignore',
  nextFlowId: 'ignore',
  scratch: 'ignore',
  csr: 'ignore',
  spareTouched: 'ignore',
  spareFreed: 'ignore',
  outside: 'ignore',
  insideCount: 'ignore',
  partLoad: 'ignore',
  shared: 'ignore',
  done: 'ignore',
  going: 'ignore',
  widenScratch: 'ignore',
});

/** Flows in the order they were made. */
function byId(a: FlowState, b: FlowState): number {
  return a.id - b.id;
}

/** A flow request's bytes and latency, which both ways of starting a flow check first. */
function checkAmounts(label: string, bytes: number, latency: number): void {
  if (typeof bytes !== 'number' || !(bytes >= 0) || !Number.isFinite(bytes)) {
    throw startError(label, `bytes must be a finite number >= 0, got ${bytes}`);
  }
  if (typeof latency !== 'number' || !(latency >= 0) || !Number.isFinite(latency)) {
    throw startError(label, `latency must be a finite number of ns >= 0, got ${latency}`);
  }
}

/** An error in a flow request, naming the flow. Built only when thrown: a string made for every
 *  flow started would cost the simulator. */
function startError(label: string, detail: string): RangeError {
  return new RangeError(`FlowNetwork.start (${label}): ${detail}`);
}
