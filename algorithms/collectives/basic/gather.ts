// Linear gather of Open MPI's basic component (ompi_coll_base_gather_intra_basic_linear): every
// non-root rank sends its buffer to the root; the root receives from each rank in turn, in rank
// order, copying its own block locally.
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import { range } from '../../../sim/node/buffer.ts';
import { defineAlgorithm } from '../../algorithm.ts';
import type { GatherArgs } from '../args.ts';
import { TAG } from '../tags.ts';

export function* basicGather(rank: Rank, { send, recv, bytes, root }: GatherArgs): Program<void> {
  if (rank.id !== root) {
    yield* rank.p2p.send(root, send, TAG.gather);
    return;
  }
  for (let i = 0; i < rank.size; i++) {
    const block = range(recv!.buf, recv!.offset + i * bytes, bytes);
    if (i === rank.id) yield* rank.copy(send, block, 'gather local block');
    else yield* rank.p2p.recv(i, block, TAG.gather);
  }
}

export const gatherBasic = defineAlgorithm({
  name: 'gather:basic',
  operation: 'gather',
  description: 'linear (Open MPI basic): the root receives block i from rank i, one rank after the other',
  params: [],
  program: basicGather,
});
