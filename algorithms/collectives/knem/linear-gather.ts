// Linear KNEM gather and gatherv (Ma et al. 2010, seed 000, §IV.B): the opposite transfer of the
// scatter. The root declares its receive buffer with write enabled and every non-root rank writes
// its block there itself (sender-writing), so the copies run in parallel on the senders' cores
// instead of serialising on the root's (Goglin & Moreaud, seed 004, §3.2). The root copies its own
// block with a plain memcpy and destroys the region once every writer has reported done.
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import type { GatherArgs, GathervArgs } from '../args.ts';
import { defineAlgorithm } from '../../algorithm.ts';
import { withEqualBlocks } from '../blocks.ts';
import { knemLinearRootedOf } from './linear-rooted.ts';

export function* knemLinearGatherv(rank: Rank, { send, recv, counts, displs, root }: GathervArgs): Program<void> {
  yield* knemLinearRootedOf(rank, 'gather', root, recv, send, counts, displs);
}

export function knemLinearGather(rank: Rank, args: GatherArgs): Program<void> {
  return knemLinearGatherv(rank, withEqualBlocks(args, rank.size));
}

export const gatherKnemLinear = defineAlgorithm({
  name: 'gather:knem-linear',
  operation: 'gather',
  description: "root declares its receive buffer writable once; every rank pushes its block in parallel (Ma et al. 2010, §IV.B)",
  params: [],
  program: knemLinearGather,
});

export const gathervKnemLinear = defineAlgorithm({
  name: 'gatherv:knem-linear',
  operation: 'gatherv',
  description: "root declares its receive buffer writable once; every rank pushes its block at its displacement in parallel (Ma et al. 2010, §IV.B)",
  params: [],
  program: knemLinearGatherv,
});
