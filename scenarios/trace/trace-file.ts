// `intranode run --trace FILE`: the sweep's points run one after another in this process, each
// with every step and load kept, and each point's events go to FILE as soon as it has run, so
// only one point's trace is in memory at a time.
import { closeSync, openSync, writeSync } from 'node:fs';
import { InputError } from '../../common/input-error.ts';
import { UnavailableError, type Point, type PointResult, type PointRunner } from '../point.ts';
import type { RunOutcome } from '../../algorithms/harness/simulate.ts';
import { ChromeTraceWriter } from './chrome-trace.ts';

/** Runs a point keeping its steps and loads (simulate-point.ts's simulatePointTraced). */
export type TracedRunner = (point: Point) => { result: PointResult; outcome: RunOutcome };

/** Writes are gathered into pieces of about this many characters before they reach the file. */
const FLUSH_CHARS = 1 << 16;

export class TraceFile {
  private readonly fd: number;
  private readonly writer: ChromeTraceWriter;
  private pending: string[] = [];
  private pendingChars = 0;
  private next = 0;

  /** `names`: every point's name in sweep order (point-names.ts). */
  constructor(
    path: string,
    private readonly names: readonly string[],
  ) {
    try {
      this.fd = openSync(path, 'w');
    } catch (e) {
      throw new InputError(`cannot write the trace: ${(e as Error).message}`, { file: path, field: '--trace' });
    }
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

  close(): void {
    this.writer.end();
    this.flush();
    closeSync(this.fd);
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
