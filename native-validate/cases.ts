// The cases `validate` reports: the test set, measured natively and predicted by the simulator with
// the calibrated machine, none of which calibration fitted on (other operations, other sizes, other
// process counts than the training set of training.ts), and the training cases' fit residuals.
import type { NativeBench, NativeMech } from './backend.ts';
import { CMA_TRAINING_SIZES } from './training.ts';

const KiB = 1024;
const MiB = 1024 * KiB;

export interface ValidationCase {
  set: 'training' | 'test';
  bench: NativeBench;
  mech: NativeMech;
  cores: number[];
  sizes: number[];
  cache: 'on' | 'off';
}

/** Test sizes by default: none of them is a training size. */
export const DEFAULT_TEST_SIZES = [2 * KiB, 32 * KiB, 512 * KiB, 2 * MiB];

export const COLLECTIVES: NativeBench[] = ['bcast', 'scatter', 'gather', 'alltoall', 'allgather'];

export interface TestSetOptions {
  cores: number[];
  /** Largest communicator of the collectives. */
  ranks: number;
  sizes: number[];
  cma: boolean;
}

export function testCases(opts: TestSetOptions): ValidationCase[] {
  const out: ValidationCase[] = [];
  const mechs: NativeMech[] = opts.cma ? ['shm', 'cma-read'] : ['shm'];
  const pair = opts.cores.slice(0, 2);
  for (const bench of ['pingpong', 'pingping'] as const)
    for (const mech of mechs) out.push({ set: 'test', bench, mech, cores: pair, sizes: opts.sizes, cache: 'off' });
  const counts = [...new Set([2, opts.ranks])].filter((n) => n >= 2 && n <= opts.ranks);
  for (const n of counts)
    for (const bench of COLLECTIVES)
      for (const mech of opts.cma ? (['shm', 'cma'] as const) : (['shm'] as const))
        out.push({ set: 'test', bench, mech, cores: opts.cores.slice(0, n), sizes: opts.sizes, cache: 'off' });
  return out;
}

/** Whether a test size was also a training size of the CMA sweep (reported, so overlap is visible). */
export function overlapsTraining(sizes: number[]): number[] {
  return sizes.filter((s) => CMA_TRAINING_SIZES.includes(s));
}
