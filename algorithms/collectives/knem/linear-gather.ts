// Linear KNEM gather and gatherv (Ma et al. 2010, seed 000, §IV.B): the opposite transfer of the
// scatter. The root declares its receive buffer with write enabled and every non-root rank writes
// its block there itself (sender-writing), so the copies run in parallel on the senders' cores
// instead of serialising on the root's (Goglin & Moreaud, seed 004, §3.2). The root copies its own
// block with a plain memcpy and destroys the region once every writer has reported done.
import type { KnemCookie, Program, Range, Rank } from '../../../sim/node/rank-api.ts';
import type { GatherArgs, GathervArgs } from '../args.ts';
import { defineAlgorithm } from '../../algorithm.ts';
import { equalBlocks, part } from '../blocks.ts';
import { push } from './copy.ts';

/** Rank r's `send` (counts[r] bytes) lands at `displs[r]` of the root's `recv`. */
export function* knemLinearGatherOf(rank: Rank, root: number, send: Range, recv: Range | undefined, counts: number[], displs: number[]): Program<void> {
  if (counts.every((c) => c === 0)) return;
  if (rank.id === root) {
    if (!recv) throw new Error(`gather: root ${root} has no receive buffer`);
    const cookie = rank.size > 1 ? yield* rank.knem.createRegion(recv, { write: true }) : undefined;
    if (cookie !== undefined) yield* rank.control.bcast(root, cookie);
    if (counts[root] > 0) yield* rank.copy(send, part(recv, displs[root], counts[root]), 'gather: own block');
    if (cookie !== undefined) {
      yield* rank.control.gather(root); // every writer is done
      yield* rank.knem.destroyRegion(cookie);
    }
  } else {
    const cookie = yield* rank.control.bcast<KnemCookie>(root);
    yield* push(rank, cookie, displs[rank.id], send);
    yield* rank.control.gather(root, 'done');
  }
}

export function* knemLinearGather(rank: Rank, { send, recv, bytes, root }: GatherArgs): Program<void> {
  const { counts, displs } = equalBlocks(rank.size, bytes);
  yield* knemLinearGatherOf(rank, root, send, recv, counts, displs);
}

export function* knemLinearGatherv(rank: Rank, { send, recv, counts, displs, root }: GathervArgs): Program<void> {
  yield* knemLinearGatherOf(rank, root, send, recv, counts, displs);
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
