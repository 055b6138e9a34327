// Dissemination barrier (ompi_coll_base_barrier_intra_bruck; Hensgen, Finkel and Manber 1988): at
// step k every rank signals rank + 2^k and waits for rank - 2^k; after ceil(log2 N) steps each rank
// has heard, directly or not, from every other.
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import { collBase } from './coll-base.ts';
import type { BarrierArgs } from '../args.ts';
import { TAG } from '../tags.ts';
import { empty } from './common.ts';

export function* disseminationBarrier(rank: Rank, _args: BarrierArgs): Program<void> {
  const size = rank.size;
  const me = rank.id;
  const none = empty(rank);
  for (let distance = 1; distance < size; distance <<= 1) {
    const from = (me + size - distance) % size;
    const to = (me + distance) % size;
    yield* rank.p2p.sendrecv(to, none, from, none, TAG.barrier);
  }
}

export const barrierDissemination = collBase(
  'barrier',
  'dissemination',
  'ceil(log2 N) rounds signalling rank + 2^k (Open MPI coll_base bruck)',
  disseminationBarrier,
);
