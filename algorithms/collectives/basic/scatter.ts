// Linear scatter of Open MPI's basic component (ompi_coll_base_scatter_intra_basic_linear): the root
// walks the ranks in order, copying its own block locally and sending every other block with a
// blocking send; every other rank receives its block from the root.
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import { range } from '../../../sim/node/buffer.ts';
import { defineAlgorithm } from '../../algorithm.ts';
import type { ScatterArgs } from '../args.ts';
import { TAG } from '../tags.ts';

export function* basicScatter(rank: Rank, { send, recv, bytes, root }: ScatterArgs): Program<void> {
  if (rank.id !== root) {
    yield* rank.p2p.recv(root, recv, TAG.scatter);
    return;
  }
  for (let i = 0; i < rank.size; i++) {
    const block = range(send!.buf, send!.offset + i * bytes, bytes);
    if (i === rank.id) yield* rank.copy(block, recv, 'scatter local block');
    else yield* rank.p2p.send(i, block, TAG.scatter);
  }
}

export const scatterBasic = defineAlgorithm({
  name: 'scatter:basic',
  operation: 'scatter',
  description: 'linear (Open MPI basic): the root sends block i to rank i, one rank after the other',
  params: [],
  program: basicScatter,
});
