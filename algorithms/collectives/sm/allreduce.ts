// Shared-memory allreduce (Open MPI coll/sm, coll_sm_allreduce.c): the fan-in reduction to rank 0
// followed by the fan-out broadcast of the result from rank 0, on the same segments.
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import { defineAlgorithm } from '../../algorithm.ts';
import type { AllreduceArgs } from '../args.ts';
import { smBcastFanOut } from './bcast.ts';
import { SM_PARAMS, smConfig } from './config.ts';
import { smReduceFanIn } from './reduce.ts';

export function* smAllreduce(rank: Rank, { send, recv, op, params }: AllreduceArgs): Program<void> {
  const cfg = smConfig(params, 'allreduce:sm');
  yield* smReduceFanIn(rank, send, rank.id === 0 ? recv : undefined, op, 0, cfg);
  yield* smBcastFanOut(rank, recv, 0, cfg);
}

export const allreduceSm = defineAlgorithm({
  name: 'allreduce:sm',
  operation: 'allreduce',
  description: 'shared-memory fan-in to rank 0 then fan-out from it (Graham & Shipman 2008, Open MPI coll/sm)',
  params: SM_PARAMS,
  program: smAllreduce,
});
