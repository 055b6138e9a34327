// Non-overlapping allreduce (ompi_coll_base_allreduce_intra_nonoverlapping): a reduce to rank 0
// followed by a broadcast from rank 0, each picked by the tuned rules as the communicator's own
// MPI_Reduce and MPI_Bcast would be.
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import { registerAlgorithm } from '../../registry.ts';
import type { AllreduceArgs, BcastArgs, ReduceArgs } from '../args.ts';
import '../ops.ts';
import { bcastDecision, reduceDecision } from './decision.ts';
import { runChoice } from './dispatch.ts';
import './bcast-binomial.ts';
import './bcast-pipeline.ts';
import './bcast-split-binary.ts';
import './reduce-binary.ts';
import './reduce-binomial.ts';
import './reduce-linear.ts';
import './reduce-pipeline.ts';

export function* nonoverlappingAllreduce(rank: Rank, args: AllreduceArgs): Program<void> {
  const { send, recv, bytes, op, params } = args;
  const reduce: ReduceArgs = { send, recv: rank.id === 0 ? recv : undefined, bytes, op, root: 0, params };
  yield* runChoice(rank, reduceDecision(bytes, rank.size), reduce);
  const bcast: BcastArgs = { buffer: recv, bytes, root: 0, params };
  yield* runChoice(rank, bcastDecision(bytes, rank.size), bcast);
}

registerAlgorithm({
  name: 'allreduce:nonoverlapping',
  operation: 'allreduce',
  description: 'reduce to rank 0, then bcast from rank 0, each picked by the tuned rules (Open MPI coll_base nonoverlapping)',
  params: [],
  program: nonoverlappingAllreduce,
});
