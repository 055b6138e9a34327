// Two-process allgather (ompi_coll_base_allgather_intra_two_procs, Open MPI 4.1): one exchange of
// blocks with the other rank, then the own block into place. Defined for two ranks only.
import { subRange } from '../../../sim/node/buffer.ts';
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import { collBase } from './coll-base.ts';
import type { AllgatherArgs } from '../args.ts';
import { TAG } from '../tags.ts';

export function* twoProcsAllgather(rank: Rank, { send, recv, bytes }: AllgatherArgs): Program<void> {
  const me = rank.id;
  const remote = me ^ 1;
  yield* rank.p2p.sendrecv(remote, send, remote, subRange(recv, remote * bytes, bytes), TAG.allgather);
  yield* rank.copy(send, subRange(recv, me * bytes, bytes));
}

export const allgatherTwoProcs = collBase(
  'allgather',
  'two-procs',
  'two ranks only: one exchange, then the own block (Open MPI coll_base two_procs)',
  twoProcsAllgather,
  { ranks: 2, test: { numRuns: 10 } },
);
