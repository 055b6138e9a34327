// `intranode run --trace FILE`: the sweep's points run one after another in this process, each
// with every step and load kept, and each point's events are written as soon as it has run, so
// only one point's trace is in memory at a time. They go to a hidden file beside FILE, renamed to
// FILE when the run completes: a run that fails or is stopped leaves FILE as it was.
import { closeSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { writeOutput } from '../../common/write-output-file.ts';
import { UnavailableError, type Point, type PointResult, type PointRunner } from '../point.ts';
import type { RunOutcome } from '../../algorithms/harness/simulate.ts';
import { ChromeTraceWriter } from './chrome-trace.ts';

/** Runs a point keeping its steps and loads (simulate-point.ts's simulatePointTraced). */
export type TracedRunner = (point: Point) => { result: PointResult; outcome: RunOutcome };

/** Writes are gathered into pieces of about this many characters before they reach the file. */
const FLUSH_CHARS = 1 << 16;

export class TraceFile {
  private readonly fd: number;
  private readonly partial: string;
  private readonly writer: ChromeTraceWriter;
  private pending: string[] = [];
  private pendingChars = 0;
  private next = 0;

  /** `names`: every point's name in sweep order (point-names.ts). */
  constructor(
    private readonly path: string,
    private readonly names: readonly string[],
  ) {
    this.partial = join(dirname(path), `.${basename(path)}.${process.pid}.partial`);
    this.fd = writeOutput(path, 'the trace', '--trace', () => openSync(this.partial, 'w'));
    this.writer = new ChromeTraceWriter((text) => this.add(text));
  }

  /** A PointRunner that also writes each point's trace; points must come in sweep order. */
  runner(traced: TracedRunner): PointRunner {
    return (point) => {
      const index = this.next++;
      const label = this.names[index];
      try {
        const { result, outcome } = traced(point);
        this.writer.point(index, { point, label, events: outcome.events, loads: outcome.loads ?? [] });
        return result;
      } catch (e) {
        if (e instanceof UnavailableError) this.writer.point(index, { point, label, unavailable: e.detail });
        throw e;
      }
    };
  }

  /** Ends the trace and puts it in place of FILE. */
  close(): void {
    this.writer.end();
    this.flush();
    closeSync(this.fd);
    try {
      writeOutput(this.path, 'the trace', '--trace', () => renameSync(this.partial, this.path));
    } catch (e) {
      rmSync(this.partial, { force: true });
      throw e;
    }
  }

  /** Drops what was written: the run failed, and FILE stays as it was. */
  abandon(): void {
    closeSync(this.fd);
    rmSync(this.partial, { force: true });
  }

  private add(text: string): void {
    this.pending.push(text);
    this.pendingChars += text.length;
    if (this.pendingChars >= FLUSH_CHARS) this.flush();
  }

  private flush(): void {
    writeSync(this.fd, this.pending.join(''));
    this.pending = [];
    this.pendingChars = 0;
  }
}
