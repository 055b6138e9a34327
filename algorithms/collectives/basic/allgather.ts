// Allgather of Open MPI's basic component (coll_basic_allgather.c): a linear gather to rank 0
// followed by a broadcast of the whole receive buffer from rank 0 (linear up to 4 ranks, a binomial
// tree above: bcast.ts).
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import { defineAlgorithm } from '../../algorithm.ts';
import type { AllgatherArgs } from '../args.ts';
import { basicBcast } from './bcast.ts';
import { basicGather } from './gather.ts';

export function* basicAllgather(rank: Rank, { send, recv, bytes, params }: AllgatherArgs): Program<void> {
  yield* basicGather(rank, { send, recv: rank.id === 0 ? recv : undefined, bytes, root: 0, params });
  yield* basicBcast(rank, { buffer: recv, bytes: recv.bytes, root: 0, params });
}

export const allgatherBasic = defineAlgorithm({
  name: 'allgather:basic',
  operation: 'allgather',
  description:
    'Open MPI basic: linear gather to rank 0, then rank 0 broadcasts the result (a binomial tree above 4 ranks)',
  params: [],
  program: basicAllgather,
});
