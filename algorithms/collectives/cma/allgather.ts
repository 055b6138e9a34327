// CMA allgather and allgatherv (Ma et al. 2010, seed 000, §IV.C, with CMA in place of KNEM): a CMA
// gather to rank 0, then a CMA broadcast of the gathered buffer from rank 0. allgatherv broadcasts
// the blocks alone, as one vectorial readv, so the gaps between them stay untouched. The staggered
// variant uses the staggered gather (writers in waves) and broadcast (k-nomial serving tree).
import type { Program, Range, Rank } from '../../../sim/node/rank-api.ts';
import type { AlgorithmProgram } from '../../algorithm.ts';
import { cmaBcastOf } from './bcast.ts';
import { cmaRootedOf } from './rooted.ts';
import { nonEmptyBlocks, withEqualBlocks } from '../blocks.ts';
import { cmaDesigns } from './designs.ts';
import type { Concurrency } from './params.ts';

function* allgatherOf(
  rank: Rank,
  send: Range,
  recv: Range,
  counts: number[],
  displs: number[],
  concurrency: number,
): Program<void> {
  yield* cmaRootedOf(
    rank,
    { way: 'gather', root: 0, shared: rank.id === 0 ? recv : undefined, own: send, counts, displs },
    concurrency,
  );
  yield* cmaBcastOf(rank, 0, nonEmptyBlocks(recv, counts, displs), concurrency);
}

const allgatherv =
  (c: Concurrency): AlgorithmProgram<'allgatherv'> =>
  (rank, a) =>
    allgatherOf(rank, a.send, a.recv, a.counts, a.displs, c(a.params));
const allgather =
  (c: Concurrency): AlgorithmProgram<'allgather'> =>
  (rank, a) =>
    allgatherv(c)(rank, withEqualBlocks(a, rank.size));

export const [allgatherCmaLinear, allgatherCmaStaggered] = cmaDesigns('allgather', allgather, {
  linear:
    'CMA gather to rank 0 (process_vm_writev), then CMA broadcast from rank 0 (process_vm_readv) (Ma et al. 2010 §IV.C over CMA)',
  staggered:
    'staggered CMA gather to rank 0, then staggered CMA broadcast: at most `concurrency` ranks at one process at a time (seed 001)',
});

export const [allgathervCmaLinear, allgathervCmaStaggered] = cmaDesigns('allgatherv', allgatherv, {
  linear:
    'CMA gatherv to rank 0, then CMA broadcast of the blocks as one vectorial readv (Ma et al. 2010 §IV.C over CMA)',
  staggered: 'staggered CMA gatherv to rank 0, then staggered vectorial CMA broadcast (seed 001)',
});
