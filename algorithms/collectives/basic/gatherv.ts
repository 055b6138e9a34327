// Linear gatherv of Open MPI's basic component (coll_basic_gatherv.c): as the linear gather, with
// each block at its own count and displacement; empty blocks are neither sent nor received.
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import { range } from '../../../sim/node/buffer.ts';
import { defineAlgorithm } from '../../algorithm.ts';
import type { GathervArgs } from '../args.ts';
import { TAG } from '../tags.ts';

export function* basicGatherv(
  rank: Rank,
  { send, recv, counts, displs, root }: GathervArgs,
  tag: number = TAG.gatherv,
): Program<void> {
  if (rank.id !== root) {
    if (counts[rank.id] > 0) yield* rank.p2p.send(root, send, tag);
    return;
  }
  for (let i = 0; i < rank.size; i++) {
    if (counts[i] === 0) continue;
    const block = range(recv!.buf, recv!.offset + displs[i], counts[i]);
    if (i === rank.id) yield* rank.copy(send, block, 'gatherv local block');
    else yield* rank.p2p.recv(i, block, tag);
  }
}

export const gathervBasic = defineAlgorithm({
  name: 'gatherv:basic',
  operation: 'gatherv',
  description: 'linear (Open MPI basic): the root receives each non-empty block from its rank, one after the other',
  params: [],
  program: (rank: Rank, args: GathervArgs) => basicGatherv(rank, args),
});
