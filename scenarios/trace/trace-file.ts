// `intranode run --trace FILE`: the sweep's points run one after another in this process, each
// with every step and load kept, and each point's events are written as soon as it has run, so
// only one point's trace is in memory at a time. They go to a hidden file beside FILE, renamed to
// FILE when the run completes: a run that fails leaves FILE as it was. FILE may be a symbolic link
// (the file it names is written) or a device or pipe (/dev/stdout, a FIFO), which is written
// directly: renaming over it would put a regular file in its place. A run stopped by a signal
// leaves its hidden file behind (the run's loop does not yield to a handler); the next trace
// written beside it removes it.
import {
  closeSync,
  lstatSync,
  openSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
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
  /** The hidden file renamed to the destination at the end; undefined when writing a device or pipe. */
  private readonly partial: string | undefined;
  private readonly writer: ChromeTraceWriter;
  private pending: string[] = [];
  private pendingChars = 0;
  private next = 0;
  /** Where the trace ends up: FILE, or the file a symbolic link FILE names. */
  private readonly destination: string;

  /** `names`: every point's name in sweep order (point-names.ts). */
  constructor(
    private readonly path: string,
    private readonly names: readonly string[],
  ) {
    const target = destination(path);
    if (target.special) {
      this.partial = undefined;
      this.fd = writeOutput(path, 'the trace', '--trace', () => openSync(target.path, 'w'));
    } else {
      removeStalePartials(target.path);
      const partial = partialName(target.path, process.pid);
      this.partial = partial;
      this.fd = writeOutput(path, 'the trace', '--trace', () => openSync(partial, 'w'));
    }
    this.destination = target.path;
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
    try {
      this.writer.end();
      this.flush();
      closeSync(this.fd);
      const partial = this.partial;
      if (partial !== undefined)
        writeOutput(this.path, 'the trace', '--trace', () => renameSync(partial, this.destination));
    } catch (e) {
      if (this.partial !== undefined) rmSync(this.partial, { force: true });
      throw e;
    }
  }

  /** Drops what was written: the run failed, and FILE stays as it was (a device or pipe keeps what
   *  it was sent). */
  abandon(): void {
    closeSync(this.fd);
    if (this.partial !== undefined) rmSync(this.partial, { force: true });
  }

  private add(text: string): void {
    this.pending.push(text);
    this.pendingChars += text.length;
    if (this.pendingChars >= FLUSH_CHARS) this.flush();
  }

  private flush(): void {
    const text = this.pending.join('');
    writeOutput(this.path, 'the trace', '--trace', () => writeSync(this.fd, text));
    this.pending = [];
    this.pendingChars = 0;
  }
}

/** The file a trace to `path` lands in, following symbolic links, and whether it is something
 *  other than a regular file (a device, a pipe), which is written in place. */
function destination(path: string): { path: string; special: boolean } {
  let target = path;
  try {
    if (lstatSync(path).isSymbolicLink()) {
      try {
        target = realpathSync(path);
      } catch {
        // A link to a file not there yet: the trace is written where it points.
        target = resolve(dirname(path), readlinkSync(path));
      }
    }
    return { path: target, special: !statSync(target).isFile() };
  } catch {
    return { path: target, special: false };
  }
}

function partialName(path: string, pid: number): string {
  return join(dirname(path), `.${basename(path)}.${pid}.partial`);
}

/** Removes the hidden files that traces to `path` by processes no longer running left behind. */
function removeStalePartials(path: string): void {
  const prefix = `.${basename(path)}.`;
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return; // the folder's absence is reported when the trace is opened
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.partial')) continue;
    const pid = Number(name.slice(prefix.length, -'.partial'.length));
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && !running(pid))
      rmSync(join(dirname(path), name), { force: true });
  }
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as { code?: string }).code === 'EPERM';
  }
}
