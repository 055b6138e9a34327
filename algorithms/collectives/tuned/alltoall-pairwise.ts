// Pairwise-exchange alltoall (ompi_coll_base_alltoall_intra_pairwise, coll_base_alltoall.c): N-1
// steps; at step s a rank sends its block for rank+s and receives from rank-s, so every step is a
// permutation and no rank receives from two at once. The loop runs `step = 1 .. size` ("so the local
// copy is last"): its last step is the rank's own block, copied.
import { subRange } from '../../../sim/node/buffer.ts';
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import { collBase } from './coll-base.ts';
import type { AlltoallArgs } from '../args.ts';
import { TAG } from '../tags.ts';

export function* pairwiseAlltoall(rank: Rank, { send, recv, bytes }: AlltoallArgs): Program<void> {
  const size = rank.size;
  const me = rank.id;
  for (let step = 1; step < size; step++) {
    const sendTo = (me + step) % size;
    const recvFrom = (me + size - step) % size;
    yield* rank.p2p.sendrecv(
      sendTo,
      subRange(send, sendTo * bytes, bytes),
      recvFrom,
      subRange(recv, recvFrom * bytes, bytes),
      TAG.alltoall,
    );
  }
  yield* rank.copy(subRange(send, me * bytes, bytes), subRange(recv, me * bytes, bytes));
}

export const alltoallPairwise = collBase(
  'alltoall',
  'pairwise',
  'N-1 exchange steps with rank+s / rank-s (Open MPI coll_base pairwise)',
  pairwiseAlltoall,
  { test: { maxRanks: 24 } },
);
