// Recursive-doubling barrier (ompi_coll_base_barrier_intra_recursivedoubling, coll_base_barrier.c):
// zero-byte messages. Ranks above the largest power of two 2^k first check in with rank - 2^k; the
// first 2^k ranks then swap messages with partners at distance 1, 2, 4...; finally the extra ranks
// are released by their partner.
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import { collBase } from './coll-base.ts';
import type { BarrierArgs } from '../args.ts';
import { TAG } from '../tags.ts';
import { empty, floorPow2 } from './common.ts';

export function* recursiveDoublingBarrier(rank: Rank, _args: BarrierArgs): Program<void> {
  const size = rank.size;
  const me = rank.id;
  const none = empty(rank);
  const adjsize = floorPow2(size);
  if (adjsize !== size) {
    if (me >= adjsize) {
      // Check in, then wait for the release: one sendrecv with the lower partner.
      yield* rank.p2p.sendrecv(me - adjsize, none, me - adjsize, none, TAG.barrier);
      return;
    }
    if (me < size - adjsize) yield* rank.p2p.recv(me + adjsize, none, TAG.barrier);
  }
  for (let mask = 1; mask < adjsize; mask <<= 1) {
    const remote = me ^ mask;
    yield* rank.p2p.sendrecv(remote, none, remote, none, TAG.barrier);
  }
  if (adjsize !== size && me < size - adjsize) yield* rank.p2p.send(me + adjsize, none, TAG.barrier);
}

export const barrierRecursiveDoubling = collBase(
  'barrier',
  'recursive-doubling',
  'zero-byte exchanges at distance 1, 2, 4..., extra ranks folded in (Open MPI coll_base)',
  recursiveDoublingBarrier,
);
