// Recursive-doubling allreduce (ompi_coll_base_allreduce_intra_recursivedoubling,
// coll_base_allreduce.c; Thakur et al. 2005 §4.4). With N not a power of two the first 2r ranks
// (r = N - 2^floor(log2 N)) fold pairwise first: even ones hand their data to the odd neighbour and
// sit out. The 2^k survivors exchange and reduce whole vectors with partners at distance 1, 2, 4...;
// finally the folded ranks get the result back.
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import { collBase } from './coll-base.ts';
import type { AllreduceArgs } from '../args.ts';
import { TAG } from '../tags.ts';
import { floorPow2, scratch } from './common.ts';

export function* recursiveDoublingAllreduce(rank: Rank, { send, recv, op }: AllreduceArgs): Program<void> {
  const size = rank.size;
  const me = rank.id;
  yield* rank.copy(send, recv);
  if (size === 1) return;
  const tmp = scratch(rank, 'allreduce-tmp', send.bytes);
  const adjsize = floorPow2(size);
  const extra = size - adjsize;

  // Fold the extra ranks into their odd neighbours.
  let newrank: number;
  if (me < 2 * extra) {
    if (me % 2 === 0) {
      yield* rank.p2p.send(me + 1, recv, TAG.allreduce);
      newrank = -1;
    } else {
      yield* rank.p2p.recv(me - 1, tmp, TAG.allreduce);
      yield* rank.reduce(op, tmp, recv);
      newrank = me >> 1;
    }
  } else {
    newrank = me - extra;
  }

  if (newrank >= 0) {
    for (let distance = 1; distance < adjsize; distance <<= 1) {
      const newremote = newrank ^ distance;
      const remote = newremote < extra ? newremote * 2 + 1 : newremote + extra;
      yield* rank.p2p.sendrecv(remote, recv, remote, tmp, TAG.allreduce);
      yield* rank.reduce(op, tmp, recv);
    }
  }

  // Hand the result back to the ranks that sat out.
  if (me < 2 * extra) {
    if (me % 2 === 0) yield* rank.p2p.recv(me + 1, recv, TAG.allreduce);
    else yield* rank.p2p.send(me - 1, recv, TAG.allreduce);
  }
}

export const allreduceRecursiveDoubling = collBase(
  'allreduce',
  'recursive-doubling',
  'full-vector exchanges at distance 1, 2, 4..., with the non-power-of-two fold (Open MPI coll_base, Thakur et al. 2005)',
  recursiveDoublingAllreduce,
);
