// Allreduce of Open MPI's basic component (coll_basic_allreduce.c): a reduce to rank 0 followed by
// a broadcast of the result from rank 0, each linear up to 4 ranks and logarithmic above (bcast.ts).
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import { defineAlgorithm } from '../../algorithm.ts';
import type { AllreduceArgs } from '../args.ts';
import { basicBcast } from './bcast.ts';
import { basicReduce } from './reduce.ts';
import { TAG } from '../tags.ts';

export function* basicAllreduce(rank: Rank, { send, recv, bytes, op, params }: AllreduceArgs): Program<void> {
  yield* basicReduce(rank, { send, recv: rank.id === 0 ? recv : undefined, bytes, op, root: 0, params }, TAG.allreduce);
  yield* basicBcast(rank, { buffer: recv, bytes, root: 0, params }, TAG.allreduce);
}

export const allreduceBasic = defineAlgorithm({
  name: 'allreduce:basic',
  operation: 'allreduce',
  description:
    'Open MPI basic: reduce to rank 0, then rank 0 broadcasts the result (linear up to 4 ranks, trees above)',
  params: [],
  program: basicAllreduce,
});
