// Non-overlapping allreduce (ompi_coll_base_allreduce_intra_nonoverlapping): a reduce to rank 0
// followed by a broadcast from rank 0, each picked by the tuned rules as the communicator's own
// MPI_Reduce and MPI_Bcast would be.
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import { collBase } from './coll-base.ts';
import type { AllreduceArgs, BcastArgs, ReduceArgs } from '../args.ts';
import { bcastDecision, reduceDecision } from './decision.ts';
import { runChoice } from './dispatch.ts';
import { bcastBinomial } from './bcast-binomial.ts';
import { bcastPipeline } from './bcast-pipeline.ts';
import { bcastSplitBinary } from './bcast-split-binary.ts';
import { reduceBinary } from './reduce-binary.ts';
import { reduceBinomial } from './reduce-binomial.ts';
import { reduceLinear } from './reduce-linear.ts';
import { reducePipeline } from './reduce-pipeline.ts';

// What the bcast and reduce rules may pick.
const BCASTS = [bcastBinomial, bcastPipeline, bcastSplitBinary];
const REDUCES = [reduceBinary, reduceBinomial, reduceLinear, reducePipeline];

export function* nonoverlappingAllreduce(rank: Rank, args: AllreduceArgs): Program<void> {
  const { send, recv, bytes, op, params } = args;
  const reduce: ReduceArgs = { send, recv: rank.id === 0 ? recv : undefined, bytes, op, root: 0, params };
  yield* runChoice(rank, reduceDecision(bytes, rank.size), reduce, REDUCES);
  const bcast: BcastArgs = { buffer: recv, bytes, root: 0, params };
  yield* runChoice(rank, bcastDecision(bytes, rank.size), bcast, BCASTS);
}

export const allreduceNonoverlapping = collBase(
  'allreduce',
  'nonoverlapping',
  'reduce to rank 0, then bcast from rank 0, each picked by the tuned rules (Open MPI coll_base nonoverlapping)',
  nonoverlappingAllreduce,
);
