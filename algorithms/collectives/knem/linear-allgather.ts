// Linear KNEM allgather and allgatherv (Ma et al. 2010, seed 000, §IV.C): a KNEM gather to rank 0
// followed by a KNEM broadcast from rank 0. The paper notes this loads rank 0's memory controller
// (every block is written there, then read from there by everyone); it is O(T) all the same.
// allgatherv broadcasts the blocks as one vectorial region so the gaps between blocks stay untouched.
import type { Program, Range, Rank } from '../../../sim/node/rank-api.ts';
import type { AllgatherArgs, AllgathervArgs } from '../args.ts';
import { defineAlgorithm } from '../../algorithm.ts';
import { equalBlocks, nonEmptyBlocks } from '../blocks.ts';
import { knemLinearBcastOf } from './linear-bcast.ts';
import { knemLinearRootedOf } from './linear-rooted.ts';

/** The first step of both KNEM allgathers: every rank writes its block into rank 0's `recv`. */
export function* knemGatherToZero(
  rank: Rank,
  send: Range,
  recv: Range,
  counts: number[],
  displs: number[],
): Program<void> {
  yield* knemLinearRootedOf(rank, {
    way: 'gather',
    root: 0,
    shared: rank.id === 0 ? recv : undefined,
    own: send,
    counts,
    displs,
  });
}

export function* knemLinearAllgather(rank: Rank, { send, recv, bytes }: AllgatherArgs): Program<void> {
  const { counts, displs } = equalBlocks(rank.size, bytes);
  yield* knemGatherToZero(rank, send, recv, counts, displs);
  yield* knemLinearBcastOf(rank, 0, [recv]);
}

export function* knemLinearAllgatherv(rank: Rank, { send, recv, counts, displs }: AllgathervArgs): Program<void> {
  yield* knemGatherToZero(rank, send, recv, counts, displs);
  yield* knemLinearBcastOf(rank, 0, nonEmptyBlocks(recv, counts, displs));
}

export const allgatherKnemLinear = defineAlgorithm({
  name: 'allgather:knem-linear',
  operation: 'allgather',
  description: 'KNEM gather to rank 0, then KNEM broadcast from rank 0 (Ma et al. 2010, §IV.C)',
  params: [],
  program: knemLinearAllgather,
});

export const allgathervKnemLinear = defineAlgorithm({
  name: 'allgatherv:knem-linear',
  operation: 'allgatherv',
  description:
    'KNEM gatherv to rank 0, then KNEM broadcast of the blocks as one vectorial region (Ma et al. 2010, §IV.C)',
  params: [],
  program: knemLinearAllgatherv,
});
