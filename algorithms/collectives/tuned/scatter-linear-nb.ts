// Non-blocking linear scatter (ompi_coll_base_scatter_intra_linear_nb, Open MPI 4.1): the root
// copies its own block in rank order and posts a send of every other block at once, then waits for
// all of them. With scatter_algorithm_max_requests (default 0) every send is non-blocking.
import { subRange } from '../../../sim/node/buffer.ts';
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import { collBase } from './coll-base.ts';
import type { ScatterArgs } from '../args.ts';
import { TAG } from '../tags.ts';
import { waitAll } from './common.ts';

export function* linearNbScatter(rank: Rank, { send, recv, bytes, root }: ScatterArgs): Program<void> {
  if (rank.id !== root) {
    yield* rank.p2p.recv(root, recv, TAG.scatter);
    return;
  }
  const sends = [];
  for (let i = 0; i < rank.size; i++) {
    if (i === root) yield* rank.copy(subRange(send!, i * bytes, bytes), recv);
    else sends.push(yield* rank.p2p.isend(i, subRange(send!, i * bytes, bytes), TAG.scatter));
  }
  yield* waitAll(sends);
}

export const scatterLinearNb = collBase(
  'scatter',
  'linear-nb',
  'the root posts a send of every block at once and copies its own (Open MPI coll_base linear_nb)',
  linearNbScatter,
);
