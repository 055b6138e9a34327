// A run's trace in the Chrome trace event format (Perfetto, chrome://tracing): one process per sweep
// point, one thread per rank (more when a rank has steps under way at once, see lanes.ts), threads
// ordered by NUMA node and core, every step a complete event ("X") with its bytes and bounding
// resource, every resource's utilisation a counter track ("C"). Events are written one at a time
// to a sink, so a large sweep never sits in memory as one document.
//
// Format: "Trace Event Format", Google, docs.google.com/document/d/1CvAClvFfyA5R-PhYUmn5OOQtYMH4h6I0nSsKchNAySU.
// Timestamps are microseconds. Times are rounded to the nanosecond first and durations taken
// between the rounded ends, so a step that ends when the next begins still does so in the file
// (fractional nanoseconds divided by 1000 would otherwise overlap by an ulp, which viewers reject).

import type { LoadSeries } from '../../sim/flow/load-recorder.ts';
import type { TraceEvent } from '../../sim/node/trace.ts';
import type { Point } from '../point.ts';
import { assignLanes } from './lanes.ts';

/** What one sweep point left for the trace: its steps and loads, or why it could not run. */
export type PointTrace =
  | { point: Point; label: string; events: readonly TraceEvent[]; loads: readonly LoadSeries[] }
  | { point: Point; label: string; unavailable: string };

export interface ChromeEvent {
  name: string;
  ph: 'X' | 'C' | 'M';
  pid: number;
  tid?: number;
  ts?: number;
  dur?: number;
  cat?: string;
  args?: Record<string, string | number>;
}

const us = (ns: number): number => Math.round(ns) / 1000;

/** Every event of one point, metadata first; `index` numbers the point in its sweep (from 0). */
export function* pointEvents(index: number, trace: PointTrace): Generator<ChromeEvent> {
  const pid = index + 1;
  const title = `point ${index}: ${trace.label}${'unavailable' in trace ? ' (n/a)' : ''}`;
  yield { name: 'process_name', ph: 'M', pid, args: { name: title } };
  yield { name: 'process_sort_index', ph: 'M', pid, args: { sort_index: index } };
  if ('unavailable' in trace) return;
  const { point, events, loads } = trace;
  const ranks = point.cores.length;
  const { lane, lanesOf } = assignLanes(events);
  const tid = (rank: number, l: number) => 1 + rank + l * ranks;
  // Threads in NUMA-node order, then core, then rank, then lane: ranks that share memory sit together.
  const coreOf = new Map(point.machine.cores.map((c) => [c.id, c]));
  const rows: { rank: number; lane: number; numa: number; core: number }[] = [];
  for (let rank = 0; rank < ranks; rank++) {
    const core = coreOf.get(point.cores[rank]);
    for (let l = 0; l < Math.max(1, lanesOf.get(rank) ?? 0); l++)
      rows.push({ rank, lane: l, numa: core?.numa ?? 0, core: point.cores[rank] });
  }
  rows.sort((a, b) => a.numa - b.numa || a.core - b.core || a.rank - b.rank || a.lane - b.lane);
  for (const [i, row] of rows.entries()) {
    const name = `NUMA ${row.numa} · core ${row.core} · rank ${row.rank}${row.lane > 0 ? ` (${row.lane + 1})` : ''}`;
    yield { name: 'thread_name', ph: 'M', pid, tid: tid(row.rank, row.lane), args: { name } };
    yield { name: 'thread_sort_index', ph: 'M', pid, tid: tid(row.rank, row.lane), args: { sort_index: i } };
  }
  for (const [i, e] of events.entries()) {
    const args: Record<string, string | number> = { bytes: e.bytes };
    if (e.resource !== undefined) args.resource = e.resource;
    yield {
      name: e.label,
      cat: e.kind,
      ph: 'X',
      pid,
      tid: tid(e.rank, lane[i]),
      ts: us(e.start),
      dur: (Math.round(e.end) - Math.round(e.start)) / 1000,
      args,
    };
  }
  for (const series of loads) {
    for (let j = 0; j < series.times.length; j++) {
      yield {
        name: series.resource,
        ph: 'C',
        pid,
        ts: us(series.times[j]),
        args: { utilisation: series.loads[j] / series.capacity },
      };
    }
  }
}

/** Writes a trace document to `write` piece by piece: begin, one call per point, end. */
export class ChromeTraceWriter {
  private readonly write: (text: string) => void;
  private first = true;

  constructor(write: (text: string) => void) {
    this.write = write;
    this.write('{"displayTimeUnit":"ns","traceEvents":[');
  }

  point(index: number, trace: PointTrace): void {
    for (const e of pointEvents(index, trace)) {
      this.write(`${this.first ? '\n' : ',\n'}${JSON.stringify(e)}`);
      this.first = false;
    }
  }

  end(): void {
    this.write('\n]}\n');
  }
}
