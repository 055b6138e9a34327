// The native backend seen from the driver: builds the C program from source with this machine's
// compiler when it is missing or older than a source file, runs one benchmark, and reads its JSON.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
export const BUILD_SCRIPT = join(HERE, 'build.sh');
export const BINARY = join(HERE, 'build', 'intranode-native');

/** The native backend could not be built or a native run failed; the message says which and why. */
export class NativeError extends Error {
  override name = 'NativeError';
}

export type NativeBench =
  | 'probe'
  | 'memcpy'
  | 'latency'
  | 'lineping'
  | 'claims'
  | 'pingpong'
  | 'pingping'
  | 'onetoall'
  | 'bcast'
  | 'scatter'
  | 'gather'
  | 'alltoall'
  | 'allgather';

export type NativeMech = 'shm' | 'cma' | 'cma-read' | 'cma-write';

export interface NativeRequest {
  bench: NativeBench;
  cores: number[];
  sizes: number[];
  mech?: NativeMech;
  cache?: 'on' | 'off';
  /** With cache off, the rotation buffers one after another (IMB's -off_cache) or in a fixed
   *  shuffled order, whose buffers the hardware prefetchers cannot foresee. */
  order?: 'sequential' | 'shuffled';
  /** With cache off, the cache size the rotation exceeds twice (--llc); the backend's own
   *  detection (probe's llcBytes) when not given. */
  llcBytes?: number;
  /** One-to-all over CMA reads (--root-waits): the root waits for its readers' notices polling its
   *  mailbox or making system calls between polls, and the iteration ends with the readers' ends,
   *  not when the root has seen their notices (as it does without it). */
  rootWaits?: 'polling' | 'syscalls';
  iterations?: number;
  warmup?: number;
  timeoutS?: number;
}

export interface NativeStats {
  bytes: number;
  medianNs: number;
  meanNs: number;
  minNs: number;
  maxNs: number;
  q1Ns: number;
  q3Ns: number;
  samples: number;
  /** One-way trip of a cache line between the first two ranks, measured right before and right
   *  after the case (src/measure.c; around each launch for Open MPI's rows, mpi/run-mpi.ts): how
   *  far apart the host had the two cores while the case ran. Absent with one rank. */
  tripBeforeNs?: number;
  tripNs?: number;
  /** Rank 0's rotation buffers its first iterations (warm-up included) took, in order, at most
   *  eight: 0, 1, 2, ... one after another; a fixed shuffle with `order: 'shuffled'`; [0] with warm
   *  caches (one buffer); empty for a case that uses no rotation buffers (the memory benchmarks). */
  buffers?: number[];
}

export interface NativeRun {
  bench: NativeBench;
  mech: string;
  ranks: number;
  cores: number[];
  cache: 'on' | 'off';
  order: 'sequential' | 'shuffled';
  /** As asked (NativeRequest.rootWaits); null when not. */
  rootWaits: 'polling' | 'syscalls' | null;
  iterations: number;
  warmup: number;
  results: NativeStats[];
}

export interface ProbeResult {
  cma: 'ok' | 'EPERM' | 'ENOSYS' | 'EFAULT' | 'error';
  cmaError: string;
  /** The cache size a cache-off rotation exceeds twice, unless a run is given another: the largest
   *  cache sysfs lists for cpu0, or, where it lists none, the backend's default (src/main.c). */
  llcBytes: number;
  llcSource: 'sysfs' | 'default' | 'given';
}

/** Builds the backend unless an up-to-date binary exists; returns its path. */
export function ensureNative(): string {
  const sources = readdirSync(join(HERE, 'src')).map((f) => statSync(join(HERE, 'src', f)).mtimeMs);
  const newest = Math.max(statSync(BUILD_SCRIPT).mtimeMs, ...sources);
  if (existsSync(BINARY) && statSync(BINARY).mtimeMs >= newest) return BINARY;
  const out = spawnSync('sh', [BUILD_SCRIPT], { encoding: 'utf8' });
  if (out.error) throw new NativeError(`cannot run ${BUILD_SCRIPT}: ${out.error.message}`);
  if (out.status !== 0) {
    const why = out.stderr.trim() || `exit status ${out.status}`;
    throw new NativeError(`building the native backend failed: ${why}`);
  }
  return BINARY;
}

export function nativeArgs(req: NativeRequest): string[] {
  const args = [req.bench, '--ranks', String(req.cores.length), '--cores', req.cores.join(',')];
  if (req.bench !== 'probe') args.push('--sizes', req.sizes.join(','));
  if (req.mech) args.push('--mech', req.mech);
  if (req.cache) args.push('--cache', req.cache);
  if (req.order) args.push('--order', req.order);
  if (req.llcBytes !== undefined) args.push('--llc', String(req.llcBytes));
  if (req.rootWaits) args.push('--root-waits', req.rootWaits);
  if (req.iterations !== undefined) args.push('--iterations', String(req.iterations));
  if (req.warmup !== undefined) args.push('--warmup', String(req.warmup));
  if (req.timeoutS !== undefined) args.push('--timeout', String(req.timeoutS));
  return args;
}

function runRaw(req: NativeRequest): unknown {
  const binary = ensureNative();
  const out = spawnSync(binary, nativeArgs(req), { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (out.error) throw new NativeError(`cannot run ${binary}: ${out.error.message}`);
  if (out.status !== 0) {
    const why = out.stderr.trim() || `exit status ${out.status ?? out.signal}`;
    throw new NativeError(`native ${req.bench} on cores ${req.cores.join(',')} failed: ${why}`);
  }
  try {
    return JSON.parse(out.stdout) as unknown;
  } catch {
    throw new NativeError(`native ${req.bench} printed something that is not JSON: ${out.stdout.slice(0, 200)}`);
  }
}

export function runNative(req: NativeRequest): NativeRun {
  return runRaw(req) as NativeRun;
}

/** Whether CMA works between two of these cores' processes (EPERM under ptrace restrictions, ENOSYS without it). */
export function probeNative(cores: number[]): ProbeResult {
  return runRaw({ bench: 'probe', cores: cores.slice(0, 2), sizes: [] }) as ProbeResult;
}
