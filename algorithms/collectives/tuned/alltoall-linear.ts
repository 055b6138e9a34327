// Linear alltoall (ompi_coll_base_alltoall_intra_basic_linear): copy the local block, post every
// receive, then every send, and wait for all of them.
import { subRange } from '../../../sim/node/buffer.ts';
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import { collBase } from './coll-base.ts';
import type { AlltoallArgs } from '../args.ts';
import { TAG } from '../tags.ts';
import { waitAll } from './common.ts';

export function* linearAlltoall(rank: Rank, { send, recv, bytes }: AlltoallArgs): Program<void> {
  const size = rank.size;
  const me = rank.id;
  yield* rank.copy(subRange(send, me * bytes, bytes), subRange(recv, me * bytes, bytes));
  const requests = [];
  // Receives from rank+1, rank+2...; sends to rank-1, rank-2..., as Open MPI posts them.
  for (let i = 1; i < size; i++) {
    const from = (me + i) % size;
    requests.push(yield* rank.p2p.irecv(from, subRange(recv, from * bytes, bytes), TAG.alltoall));
  }
  for (let i = 1; i < size; i++) {
    const to = (me + size - i) % size;
    requests.push(yield* rank.p2p.isend(to, subRange(send, to * bytes, bytes), TAG.alltoall));
  }
  yield* waitAll(requests);
}

export const alltoallLinear = collBase(
  'alltoall',
  'linear',
  'all receives and sends posted at once (Open MPI coll_base basic_linear)',
  linearAlltoall,
  { test: { maxRanks: 24 } },
);
