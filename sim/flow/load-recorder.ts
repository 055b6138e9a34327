// Utilisation over time: each resource's load as a step function of simulated time, taken from
// the flow network after every re-solve. Loads only change at re-solves, so the change points are
// the whole story; nothing is sampled.

import type { FlowNetwork, Resource } from './network.ts';

/** One resource's load: `loads[i]` bytes/ns from `times[i]` until `times[i + 1]` (or the end). */
export interface LoadSeries {
  resource: string;
  /** Bytes/ns the resource can carry. */
  capacity: number;
  times: number[];
  loads: number[];
  /** With `flows` recording: the labels of the flows crossing it from `times[i]` on. */
  flows?: string[][];
}

export interface LoadRecorderOptions {
  /** Also keep which flows cross each resource at every change (for a viewer; costs memory). */
  flows?: boolean;
  /** Keep every change noted since the last reset, so a span of them can be noted again later
   *  (`repeat`): for runs whose later calls replay earlier ones instead of being simulated. */
  log?: boolean;
}

/** One change as noted: the resource, when, and what it carried from then on. */
interface Change {
  resource: Resource;
  at: number;
  load: number;
  flows: string[] | undefined;
}

export class LoadRecorder {
  private readonly net: FlowNetwork;
  private series: LoadSeries[] = [];
  private startedAt = 0;
  private readonly keepFlows: boolean;
  private readonly log: Change[] | undefined;
  /** Changes dropped from the front of the log (`forget`): marks count from the reset, not the log. */
  private logDropped = 0;

  constructor(net: FlowNetwork, now: number, opts: LoadRecorderOptions = {}) {
    this.net = net;
    this.keepFlows = opts.flows ?? false;
    this.log = opts.log ? [] : undefined;
    this.reset(now);
    net.onLoadChange((resources, at) => {
      for (const r of resources) this.note(r, at);
    });
  }

  /** Forgets what was recorded and starts again at `now` from the loads of this instant. */
  reset(now: number): void {
    this.startedAt = now;
    if (this.log) this.log.length = 0;
    this.logDropped = 0;
    this.series = this.net.resources.map((r) => ({
      resource: r.name,
      capacity: r.capacity,
      times: [now],
      loads: [r.load],
      ...(this.keepFlows ? { flows: [r.flowLabels()] } : {}),
    }));
  }

  /** Every resource that carried something since the last reset, in the network's order. */
  used(): LoadSeries[] {
    // filter skips the holes of resources that never appeared.
    return this.series.filter((s) => s.loads.some((l) => l > 0));
  }

  /** Where the log of changes stands (see `repeat`); 0 without a log. */
  mark(): number {
    return this.log ? this.logDropped + this.log.length : 0;
  }

  /** Drops the logged changes before mark `before`: no span starting before it will be repeated. */
  forget(before: number): void {
    const log = this.log;
    const n = log ? Math.min(before - this.logDropped, log.length) : 0;
    if (n <= 0) return;
    log!.splice(0, n);
    this.logDropped += n;
  }

  /**
   * Notes again the changes logged from mark `from` to mark `to`, each time moved by `place`: what
   * the network would report if the span of the run between those marks happened again, later,
   * from a state the same as at `from` (a replayed call, algorithms/harness/steady-state.ts). The
   * changes go through the same merging as the network's, so the series are those of simulating
   * the span, to the rounding of the times moved. They are not logged again: no span is replayed
   * from a replay.
   */
  repeat(from: number, to: number, place: (t: number) => number): void {
    const log = this.log;
    if (!log) throw new Error('LoadRecorder.repeat: the recorder keeps no log');
    if (from < this.logDropped) throw new Error(`LoadRecorder.repeat: mark ${from} was forgotten`);
    for (let i = from; i < to; i++) {
      const c = log[i - this.logDropped];
      this.apply(c.resource, place(c.at), c.load, c.flows);
    }
  }

  private note(r: Resource, at: number): void {
    const flows = this.keepFlows ? r.flowLabels() : undefined;
    this.log?.push({ resource: r, at, load: r.load, flows });
    this.apply(r, at, r.load, flows);
  }

  private apply(r: Resource, at: number, load: number, flows: string[] | undefined): void {
    // A resource made after the reset (a DMA engine made on first use) carried nothing before.
    const s = (this.series[r.id] ??= {
      resource: r.name,
      capacity: r.capacity,
      times: [this.startedAt],
      loads: [0],
      ...(this.keepFlows ? { flows: [[]] } : {}),
    });
    const last = s.loads.length - 1;
    // With flows kept, a new set of flows at the same load is a change too.
    if (s.loads[last] === load && (!flows || sameList(flows, s.flows![last]))) return;
    // Several re-solves at one instant: only the load that holds after them matters.
    if (s.times[last] === at) {
      s.loads[last] = load;
      if (flows) s.flows![last] = flows;
      if (last > 0 && s.loads[last - 1] === load && (!flows || sameList(flows, s.flows![last - 1]))) {
        s.times.pop();
        s.loads.pop();
        s.flows?.pop();
      }
      return;
    }
    s.times.push(at);
    s.loads.push(load);
    if (flows) s.flows!.push(flows);
  }
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
