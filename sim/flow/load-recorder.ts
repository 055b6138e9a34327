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
}

export class LoadRecorder {
  private readonly net: FlowNetwork;
  private series: LoadSeries[] = [];
  private startedAt = 0;
  private readonly keepFlows: boolean;

  constructor(net: FlowNetwork, now: number, opts: LoadRecorderOptions = {}) {
    this.net = net;
    this.keepFlows = opts.flows ?? false;
    this.reset(now);
    net.onLoadChange((resources, at) => {
      for (const r of resources) this.note(r, at);
    });
  }

  /** Forgets what was recorded and starts again at `now` from the loads of this instant. */
  reset(now: number): void {
    this.startedAt = now;
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

  private note(r: Resource, at: number): void {
    // A resource made after the reset (a DMA engine made on first use) carried nothing before.
    const s = (this.series[r.id] ??= {
      resource: r.name,
      capacity: r.capacity,
      times: [this.startedAt],
      loads: [0],
      ...(this.keepFlows ? { flows: [[]] } : {}),
    });
    const last = s.loads.length - 1;
    const flows = s.flows ? r.flowLabels() : undefined;
    // With flows kept, a new set of flows at the same load is a change too.
    if (s.loads[last] === r.load && (!flows || sameList(flows, s.flows![last]))) return;
    // Several re-solves at one instant: only the load that holds after them matters.
    if (s.times[last] === at) {
      s.loads[last] = r.load;
      if (flows) s.flows![last] = flows;
      if (last > 0 && s.loads[last - 1] === r.load && (!flows || sameList(flows, s.flows![last - 1]))) {
        s.times.pop();
        s.loads.pop();
        s.flows?.pop();
      }
      return;
    }
    s.times.push(at);
    s.loads.push(r.load);
    if (flows) s.flows!.push(flows);
  }
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
