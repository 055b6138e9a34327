// Linear KNEM scatter, scatterv, gather and gatherv (Ma et al. 2010, seed 000, §IV.B), over the
// shared core of linear-rooted.ts. Scatter, derived from the broadcast: the root declares its whole
// send buffer once and each non-root rank reads only its own block at its offset (receiver-reading,
// all in parallel). Gather, the opposite transfer: the root declares its receive buffer with write
// enabled and every non-root rank writes its block there itself (sender-writing), so the copies run
// in parallel on the senders' cores instead of serialising on the root's (Goglin & Moreaud, seed
// 004, §3.2).
import { defineAlgorithm, type AlgorithmProgram, type Defined } from '../../algorithm.ts';
import type { OperationName } from '../../operations.ts';
import { withEqualBlocks } from '../blocks.ts';
import { knemLinearRootedOf } from './linear-rooted.ts';

const scatterv: AlgorithmProgram<'scatterv'> = (rank, a) =>
  knemLinearRootedOf(rank, {
    way: 'scatter',
    root: a.root,
    shared: a.send,
    own: a.recv,
    counts: a.counts,
    displs: a.displs,
  });
const scatter: AlgorithmProgram<'scatter'> = (rank, a) => scatterv(rank, withEqualBlocks(a, rank.size));
const gatherv: AlgorithmProgram<'gatherv'> = (rank, a) =>
  knemLinearRootedOf(rank, {
    way: 'gather',
    root: a.root,
    shared: a.recv,
    own: a.send,
    counts: a.counts,
    displs: a.displs,
  });
const gather: AlgorithmProgram<'gather'> = (rank, a) => gatherv(rank, withEqualBlocks(a, rank.size));

const linear = <Op extends OperationName>(
  operation: Op,
  program: AlgorithmProgram<Op>,
  description: string,
): Defined<Op> => defineAlgorithm({ name: `${operation}:knem-linear`, operation, description, params: [], program });

export const scatterKnemLinear = linear(
  'scatter',
  scatter,
  'root declares its send buffer once; each rank pulls its own block in parallel (Ma et al. 2010, §IV.B)',
);
export const scattervKnemLinear = linear(
  'scatterv',
  scatterv,
  'root declares its send buffer once; each rank pulls its block at its displacement in parallel (Ma et al. 2010, §IV.B)',
);
export const gatherKnemLinear = linear(
  'gather',
  gather,
  'root declares its receive buffer writable once; every rank pushes its block in parallel (Ma et al. 2010, §IV.B)',
);
export const gathervKnemLinear = linear(
  'gatherv',
  gatherv,
  'root declares its receive buffer writable once; every rank pushes its block at its displacement in parallel (Ma et al. 2010, §IV.B)',
);
