// Ring allgather (ompi_coll_base_allgather_intra_ring, coll_base_allgather.c): each rank places its
// block, then for N-1 steps passes to its right neighbour the block it received last (its own
// first) while receiving the next one from its left neighbour.
import { subRange } from '../../../sim/node/buffer.ts';
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import { collBase } from './coll-base.ts';
import type { AllgatherArgs } from '../args.ts';
import { TAG } from '../tags.ts';

export function* ringAllgather(rank: Rank, { send, recv, bytes }: AllgatherArgs): Program<void> {
  const size = rank.size;
  const me = rank.id;
  yield* rank.copy(send, subRange(recv, me * bytes, bytes));
  const sendTo = (me + 1) % size;
  const recvFrom = (me + size - 1) % size;
  for (let i = 0; i < size - 1; i++) {
    const sendFrom = (me - i + size) % size;
    const recvData = (me - i - 1 + size) % size;
    yield* rank.p2p.sendrecv(
      sendTo,
      subRange(recv, sendFrom * bytes, bytes),
      recvFrom,
      subRange(recv, recvData * bytes, bytes),
      TAG.allgather,
    );
  }
}

export const allgatherRing = collBase(
  'allgather',
  'ring',
  'N-1 steps passing blocks to the right neighbour (Open MPI coll_base ring)',
  ringAllgather,
  { test: { maxRanks: 40 } },
);
