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
 *  and sends 64 KiB by its LMT). */
export const NATIVE_TRANSPORT: Record<string, ParamValue> = {
  shm: 'nemesis',
  single: 'none',
  eagerLimit: 64 * 1024,
  lmtBuffer: 'direction',
};

/** How a case runs: the native backend's own programs (the default: its double copy, no MPI library
 *  in between), or Open MPI's (`mpi`, with the transport parameters of its run). */
export interface PredictOptions {
  params?: Record<string, ParamValue>;
  warmup?: number;
  /** The call goes through Open MPI's binding, which ends a call that moves nothing at once. */
  mpi?: boolean;
}

export function predictNs(
  spec: MachineSpec,
  algorithm: string,
  cores: number[],
  bytes: number,
  cache: 'on' | 'off',
  { params = NATIVE_TRANSPORT, warmup = 1, mpi = false }: PredictOptions = {},
): number {
  const out = runAlgorithm({
    machine: spec,
    cores,
    algorithm,
    call: { bytes, root: 0, params: { ...params } },
    cache,
    iterations: 2,
    warmup,
    seed: 'validate',
    mpiBinding: mpi,
  });
  return out.times.reduce((a, b) => a + b, 0) / out.times.length;
}
