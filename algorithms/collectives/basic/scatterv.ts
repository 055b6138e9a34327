// Linear scatterv of Open MPI's basic component (coll_basic_scatterv.c): as the linear scatter,
// with each block at its own count and displacement; empty blocks are neither sent nor received.
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import { range } from '../../../sim/node/buffer.ts';
import { defineAlgorithm } from '../../algorithm.ts';
import type { ScattervArgs } from '../args.ts';
import { TAG } from '../tags.ts';

export function* basicScatterv(rank: Rank, { send, counts, displs, recv, root }: ScattervArgs): Program<void> {
  if (rank.id !== root) {
    if (counts[rank.id] > 0) yield* rank.p2p.recv(root, recv, TAG.scatterv);
    return;
  }
  for (let i = 0; i < rank.size; i++) {
    if (counts[i] === 0) continue;
    const block = range(send!.buf, send!.offset + displs[i], counts[i]);
    if (i === rank.id) yield* rank.copy(block, recv, 'scatterv local block');
    else yield* rank.p2p.send(i, block, TAG.scatterv);
  }
}

export const scattervBasic = defineAlgorithm({
  name: 'scatterv:basic',
  operation: 'scatterv',
  description: 'linear (Open MPI basic): the root sends each non-empty block to its rank, one after the other',
  params: [],
  program: basicScatterv,
});
