// `intranode run --trace FILE`: the sweep's points run one after another in this process, each
// with every step and load kept, and each point's events are written as soon as it has run, so
// only one point's trace is in memory at a time. They go to a hidden file beside FILE, renamed to
// FILE when the run completes: a run that fails leaves FILE as it was. FILE may be a symbolic link
// (the file it names is written) or a device or pipe (/dev/stdout, a FIFO), which is written
// directly: renaming over it would put a regular file in its place. A run stopped by a signal
// leaves its hidden file behind (the run's loop does not yield to a handler); the next trace to
// the same file on the same host removes it.
import {
  closeSync,
  lstatSync,
  openSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
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
      // Appending: a stream such as /dev/stdout redirected with `>>` keeps what it holds.
      this.fd = traceWrite(path, () => openSync(target.path, 'a'));
    } else {
      removeStalePartials(target.path);
      const partial = partialName(target.path, process.pid);
      this.partial = partial;
      this.fd = traceWrite(path, () => openSync(partial, 'w'));
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
      if (partial !== undefined) traceWrite(this.path, () => renameSync(partial, this.destination));
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
    traceWrite(this.path, () => writeSync(this.fd, text));
    this.pending = [];
    this.pendingChars = 0;
  }
}

/** Runs `op`, a write of the trace to `path`, its failure said as the trace's (write-output-file.ts). */
function traceWrite<T>(path: string, op: () => T): T {
  return writeOutput(path, 'the trace', '--trace', op);
}

/** Where a trace to `path` goes: the regular file it names (through any symbolic links), renamed
 *  into place at the end, or `path` itself opened directly when it is, or leads through a link to,
 *  something else: a device or pipe (/dev/stdout), a file under /dev or /proc (whose links the
 *  kernel resolves by the process, not by name), or a link to nothing yet (the kernel creates
 *  the file where the link, followed from where it really sits, points). */
function destination(path: string): { path: string; special: boolean } {
  const direct = { path, special: true };
  const magic = (p: string) => /^\/(dev|proc)\//.test(p);
  if (magic(resolve(path))) return direct;
  let current = resolve(path);
  for (let hops = 0; hops < 40; hops++) {
    let entry;
    try {
      entry = lstatSync(current, { throwIfNoEntry: false });
    } catch {
      entry = undefined;
    }
    // Nothing there: a new file where FILE is (its folder's absence is reported when opened), or a
    // link to nothing yet, which the kernel follows itself.
    if (entry === undefined) return hops === 0 ? { path: current, special: false } : direct;
    if (!entry.isSymbolicLink()) return entry.isFile() ? { path: realpathSync(current), special: false } : direct;
    try {
      // The link's target from the folder the link really sits in, as the kernel follows it.
      current = resolve(realpathSync(dirname(current)), readlinkSync(current));
    } catch {
      return direct;
    }
    if (magic(current)) return direct;
  }
  return direct;
}

/** The hidden file a trace writes before it is renamed into place; named by host and process, so
 *  that a run in another container or on another host sharing the folder is never taken for one of
 *  this host's that no longer runs. */
function partialName(path: string, pid: number): string {
  return join(dirname(path), `.${basename(path)}.${hostname()}.${pid}.partial`);
}

/** Removes the hidden files that traces to `path` by processes of this host no longer running left
 *  behind; what cannot be removed (another user's) is left where it is. */
function removeStalePartials(path: string): void {
  const prefix = `.${basename(path)}.${hostname()}.`;
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return; // the folder's absence is reported when the trace is opened
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.partial')) continue;
    const digits = name.slice(prefix.length, -'.partial'.length);
    const pid = /^\d+$/.test(digits) ? Number(digits) : NaN;
    if (!(pid > 0) || pid === process.pid || running(pid)) continue;
    const stale = join(dirname(path), name);
    try {
      if (lstatSync(stale).isFile()) rmSync(stale);
    } catch {
      // Not ours to remove (a sticky folder, another user's file): it stays.
    }
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
