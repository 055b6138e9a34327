// Linear gather (ompi_coll_base_gather_intra_basic_linear): every rank sends its block to the root,
// which receives them in rank order, one at a time, and copies its own.
import { subRange } from '../../../sim/node/buffer.ts';
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import { collBase } from './coll-base.ts';
import type { GatherArgs } from '../args.ts';
import { TAG } from '../tags.ts';

export function* linearGather(rank: Rank, { send, recv, bytes, root }: GatherArgs): Program<void> {
  if (rank.id !== root) {
    yield* rank.p2p.send(root, send, TAG.gather);
    return;
  }
  for (let i = 0; i < rank.size; i++) {
    if (i === root) yield* rank.copy(send, subRange(recv!, i * bytes, bytes));
    else yield* rank.p2p.recv(i, subRange(recv!, i * bytes, bytes), TAG.gather);
  }
}

export const gatherLinear = collBase(
  'gather',
  'linear',
  "the root receives each rank's block in turn (Open MPI coll_base basic_linear)",
  linearGather,
);
