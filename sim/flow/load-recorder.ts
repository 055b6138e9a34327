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
}

export class LoadRecorder {
  private readonly net: FlowNetwork;
  private series: LoadSeries[] = [];
  private startedAt = 0;

  constructor(net: FlowNetwork, now: number) {
    this.net = net;
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
    }));
  }

  /** Every resource that carried something since the last reset, in the network's order. */
  used(): LoadSeries[] {
    // filter skips the holes of resources that never appeared.
    return this.series.filter((s) => s.loads.some((l) => l > 0));
  }

  private note(r: Resource, at: number): void {
    // A resource made after the reset (a DMA engine made on first use) carried nothing before.
    const s = (this.series[r.id] ??= { resource: r.name, capacity: r.capacity, times: [this.startedAt], loads: [0] });
    const last = s.loads.length - 1;
    if (s.loads[last] === r.load) return;
    // Several re-solves at one instant: only the load that holds after them matters.
    if (s.times[last] === at) {
      s.loads[last] = r.load;
      if (last > 0 && s.loads[last - 1] === r.load) {
        s.times.pop();
        s.loads.pop();
      }
      return;
    }
    s.times.push(at);
    s.loads.push(r.load);
  }
}
