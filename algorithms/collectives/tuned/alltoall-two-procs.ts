// Two-process alltoall (ompi_coll_base_alltoall_intra_two_procs, Open MPI 4.1): one exchange of
// blocks with the other rank, then the local block. Defined for two ranks only, as Open MPI's is.
import { subRange } from '../../../sim/node/buffer.ts';
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import { collBase } from './coll-base.ts';
import type { AlltoallArgs } from '../args.ts';
import { TAG } from '../tags.ts';

export function* twoProcsAlltoall(rank: Rank, { send, recv, bytes }: AlltoallArgs): Program<void> {
  const me = rank.id;
  const remote = me ^ 1;
  yield* rank.p2p.sendrecv(
    remote,
    subRange(send, remote * bytes, bytes),
    remote,
    subRange(recv, remote * bytes, bytes),
    TAG.alltoall,
  );
  yield* rank.copy(subRange(send, me * bytes, bytes), subRange(recv, me * bytes, bytes));
}

export const alltoallTwoProcs = collBase(
  'alltoall',
  'two-procs',
  'two ranks only: one exchange, then the local block (Open MPI coll_base two_procs)',
  twoProcsAlltoall,
  { ranks: 2, test: { numRuns: 10 } },
);
