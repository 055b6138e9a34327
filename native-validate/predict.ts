// The simulator's prediction for a native case: the same operation, algorithm, cores, size and
// cache mode, run through the algorithm harness (which also checks the simulated data).
import { runAlgorithm } from '../algorithms/harness/simulate.ts';
import type { ParamValue } from '../algorithms/algorithm.ts';
import type { MachineSpec } from '../hardware/spec.ts';
import type { NativeBench, NativeMech } from './backend.ts';

/** The catalogued algorithm that does what the native benchmark does over that mechanism. */
export function modelAlgorithm(bench: NativeBench, mech: NativeMech): string | undefined {
  const cma = mech === 'cma' || mech === 'cma-read';
  switch (bench) {
    case 'pingpong':
    case 'pingping':
    case 'onetoall':
      if (mech === 'shm') return `${bench}:shm`;
      return cma ? `${bench}:cma` : undefined;
    case 'bcast':
    case 'scatter':
    case 'gather':
    case 'alltoall':
    case 'allgather':
      return cma ? `${bench}:cma-linear` : `${bench}:basic`;
    default:
      return undefined;
  }
}

/** Transport parameters matching the native double copy (native-validate/src/channel.c): Nemesis's
 *  eager cells and MPICH2's LMT chunks, no single copy; a message of up to one 64 KiB slot goes as
 *  one fragment, and each direction of a pair has its own ring (MPICH2 shares one LMT buffer per pair
 *  and sends 64 KiB by its LMT). No MPI library stands between the program and its ring: a fragment
 *  costs a flag's load and store besides its copy, no matching and no request, so no library work
 *  per packet side (the flag's line trips are charged as Nemesis's). */
export const NATIVE_TRANSPORT: Record<string, ParamValue> = {
  shm: 'nemesis',
  single: 'none',
  eagerLimit: 64 * 1024,
  lmtBuffer: 'direction',
  nemesisSideNs: 0,
};

/** How a case runs: the native backend's own programs (the default: its double copy, no MPI library
 *  in between), or Open MPI's (`mpi`, with the transport parameters of its run). */
export interface PredictOptions {
  params?: Record<string, ParamValue>;
  warmup?: number;
  /** The call goes through Open MPI's binding, which ends a call that moves nothing at once. */
  mpi?: boolean;
  /**
   * The native run's calls, where what a call costs depends on which calls came before it (a cold
   * run's rotation, sim/kernel/user-access.ts): its measured calls after its warm-up, and with cache
   * off the copies of each rank's buffers it rotates through (`nativeRotation`). The prediction is
   * then the median of the simulated calls, as the native one is; without it, the mean of two calls.
   */
  calls?: { iterations: number; warmup: number; rotation?: number };
}

/** The base page of x86-64 Linux, on which the native programs' buffers start (and the pages the
 *  validation doc counts per message). */
export const PAGE_BYTES = 4096;
const pageRound = (n: number) => Math.ceil(n / PAGE_BYTES) * PAGE_BYTES;

/** The bytes between one copy of a rank's buffers and the next in a native program's rotation: its
 *  send buffer and receive buffer, each starting on a page, one after the other. The sizes are those
 *  every rank of the program allocates for `bench` at `bytes` per block (src/bench_p2p.c,
 *  src/bench_coll.c, mpi/timing.c). */
function nativeStride(bench: string, bytes: number, ranks: number): number {
  const [send, recv] =
    bench === 'scatter'
      ? [ranks * bytes, bytes]
      : bench === 'gather' || bench === 'allgather'
        ? [bytes, ranks * bytes]
        : bench === 'alltoall'
          ? [ranks * bytes, ranks * bytes]
          : [bytes, bytes];
  return Math.max(PAGE_BYTES, pageRound(pageRound(send) + recv));
}

/**
 * How many copies of its buffers a native program's cold run rotates through: as many as take more
 * than twice `offCacheBytes`, plus one (src/measure.c, `arena_make`; mpi/timing.c alike).
 */
export function nativeRotation(bench: string, bytes: number, ranks: number, offCacheBytes: number): number {
  return Math.ceil((2 * offCacheBytes) / nativeStride(bench, bytes, ranks)) + 1;
}

/** The least cache size of at least `offCacheBytes` whose rotation gives each of `calls` calls of
 *  `bench` a copy of its own at every one of `sizes`: no call reaches pages an earlier one reached. */
export function newPagesOffCache(
  bench: string,
  sizes: readonly number[],
  ranks: number,
  offCacheBytes: number,
  calls: number,
): number {
  // ceil(2 L / stride) + 1 >= calls holds exactly where 2 L / stride > calls - 2.
  const least = Math.max(
    ...sizes.map((bytes) => Math.floor((Math.max(0, calls - 2) * nativeStride(bench, bytes, ranks)) / 2) + 1),
  );
  return Math.max(offCacheBytes, least);
}

/** The median as the native programs compute it: between the two middle values for an even count. */
function nativeMedian(values: readonly number[]): number {
  const v = [...values].sort((a, b) => a - b);
  const pos = 0.5 * (v.length - 1);
  const lo = Math.floor(pos);
  const hi = Math.min(lo + 1, v.length - 1);
  return v[lo] + (v[hi] - v[lo]) * (pos - lo);
}

export function predictNs(
  spec: MachineSpec,
  algorithm: string,
  cores: number[],
  bytes: number,
  cache: 'on' | 'off',
  { params = NATIVE_TRANSPORT, warmup = 1, mpi = false, calls }: PredictOptions = {},
): number {
  const out = runAlgorithm({
    machine: spec,
    cores,
    algorithm,
    call: { bytes, root: 0, params: { ...params } },
    cache,
    iterations: calls?.iterations ?? 2,
    warmup: calls?.warmup ?? warmup,
    seed: 'validate',
    mpiBinding: mpi,
    rotation: cache === 'off' ? calls?.rotation : undefined,
  });
  return calls ? nativeMedian(out.times) : out.times.reduce((a, b) => a + b, 0) / out.times.length;
}
