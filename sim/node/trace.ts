// Every mechanism step (copy, syscall, pin, lock wait, poll, control message) becomes a trace event,
// so the breakdown can show where time goes. The per-kind totals are always
// kept; the full event list only when asked for, since sweeps produce millions of steps.
import { stateRules } from '../../common/state-fingerprint.ts';

export interface TraceEvent {
  rank: number;
  kind: string;
  label: string;
  start: number;
  end: number;
  bytes: number;
  /** For a copy or reduction, the resource that bounded its flow for the longest part of its life,
   *  under the contention it actually met (none for a copy of no bytes); for a DMA copy, its engine;
   *  for a wait, what was waited on. */
  resource?: string;
}

export class Trace {
  readonly events: TraceEvent[] = [];
  private readonly totals = new Map<string, number>();
  private readonly keepEvents: boolean;

  constructor(keepEvents: boolean) {
    this.keepEvents = keepEvents;
  }

  record(event: TraceEvent): void {
    const duration = event.end - event.start;
    this.totals.set(event.kind, (this.totals.get(event.kind) ?? 0) + duration);
    if (this.keepEvents) this.events.push(event);
  }

  /** Adds rank-time of `kind` without an event: steps a model accounted for in bulk (a train's
   *  fragments, sim/kernel/shm/lmt-train.ts), negative to take back time a step will record. */
  addTime(kind: string, ns: number): void {
    this.totals.set(kind, (this.totals.get(kind) ?? 0) + ns);
  }

  /**
   * Appends copies of the kept events from index `from` to `to`, each time moved by `place`: the
   * steps of a span of the run that happens again from the same state, later (a replayed call,
   * algorithms/harness/steady-state.ts). The totals are not touched: the caller adds the span's.
   */
  repeat(from: number, to: number, place: (t: number) => number): void {
    for (let i = from; i < to; i++) {
      const e = this.events[i];
      this.events.push({ ...e, start: place(e.start), end: place(e.end) });
    }
  }

  /** Rank-time per kind of step, in ns, sorted by kind for stable output. */
  totalsByKind(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const kind of [...this.totals.keys()].sort()) out[kind] = this.totals.get(kind)!;
    return out;
  }

  reset(): void {
    this.events.length = 0;
    this.totals.clear();
  }
}

// What happened, for reports: the model never reads it back.
stateRules(Trace, { events: 'ignore', totals: 'ignore' });
