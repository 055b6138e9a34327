// CMA allgather and allgatherv (Ma et al. 2010, seed 000, §IV.C, with CMA in place of KNEM): a CMA
// gather to rank 0, then a CMA broadcast of the gathered buffer from rank 0. allgatherv broadcasts
// the blocks alone, as one vectorial readv, so the gaps between them stay untouched. The staggered
// variant uses the staggered gather (writers in waves) and broadcast (k-nomial serving tree).
import type { Program, Range, Rank } from '../../../sim/node/rank-api.ts';
import type { AllgatherArgs, AllgathervArgs } from '../args.ts';
import { defineAlgorithm } from '../../algorithm.ts';
import { cmaBcastOf } from './bcast.ts';
import { cmaGatherOf } from './gather.ts';
import { equalBlocks, nonEmptyBlocks } from '../blocks.ts';
import { concurrencyParam, linear, staggered, type Concurrency } from './params.ts';

function* allgatherOf(rank: Rank, send: Range, recv: Range, counts: number[], displs: number[], concurrency: number): Program<void> {
  yield* cmaGatherOf(rank, 0, send, rank.id === 0 ? recv : undefined, counts, displs, concurrency);
  yield* cmaBcastOf(rank, 0, nonEmptyBlocks(recv, counts, displs), concurrency);
}

function allgather(concurrency: Concurrency) {
  return function* (rank: Rank, { send, recv, bytes, params }: AllgatherArgs): Program<void> {
    const { counts, displs } = equalBlocks(rank.size, bytes);
    yield* allgatherOf(rank, send, recv, counts, displs, concurrency(params));
  };
}

function allgatherv(concurrency: Concurrency) {
  return function* (rank: Rank, { send, recv, counts, displs, params }: AllgathervArgs): Program<void> {
    yield* allgatherOf(rank, send, recv, counts, displs, concurrency(params));
  };
}

export const allgatherCmaLinear = defineAlgorithm({
  name: 'allgather:cma-linear',
  operation: 'allgather',
  description: 'CMA gather to rank 0 (process_vm_writev), then CMA broadcast from rank 0 (process_vm_readv) (Ma et al. 2010 §IV.C over CMA)',
  params: [],
  program: allgather(linear),
});

export const allgathervCmaLinear = defineAlgorithm({
  name: 'allgatherv:cma-linear',
  operation: 'allgatherv',
  description: 'CMA gatherv to rank 0, then CMA broadcast of the blocks as one vectorial readv (Ma et al. 2010 §IV.C over CMA)',
  params: [],
  program: allgatherv(linear),
});

export const allgatherCmaStaggered = defineAlgorithm({
  name: 'allgather:cma-staggered',
  operation: 'allgather',
  description: 'staggered CMA gather to rank 0, then staggered CMA broadcast: at most `concurrency` ranks at one process at a time (seed 001)',
  params: [concurrencyParam],
  test: { params: { concurrency: { integers: { min: 1, max: 6 } } } },
  program: allgather(staggered('allgather:cma-staggered')),
});

export const allgathervCmaStaggered = defineAlgorithm({
  name: 'allgatherv:cma-staggered',
  operation: 'allgatherv',
  description: 'staggered CMA gatherv to rank 0, then staggered vectorial CMA broadcast (seed 001)',
  params: [concurrencyParam],
  test: { params: { concurrency: { integers: { min: 1, max: 6 } } } },
  program: allgatherv(staggered('allgatherv:cma-staggered')),
});
