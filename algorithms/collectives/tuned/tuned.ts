// `<op>:tuned`: Open MPI's tuned component with its fixed decision rules (decision.ts). Every rank
// evaluates the same rule on the same sizes, so all ranks run the same algorithm.
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import { registerAlgorithm } from '../../registry.ts';
import type { AllgatherArgs, AllreduceArgs, AlltoallArgs, BarrierArgs, BcastArgs, GatherArgs, ReduceArgs, ScatterArgs } from '../args.ts';
import '../ops.ts';
import * as rules from './decision.ts';
import { runChoice } from './dispatch.ts';
import './allgather-bruck.ts';
import './allgather-neighbor-exchange.ts';
import './allgather-recursive-doubling.ts';
import './allgather-ring.ts';
import './allreduce-nonoverlapping.ts';
import './allreduce-recursive-doubling.ts';
import './allreduce-ring.ts';
import './alltoall-bruck.ts';
import './alltoall-linear.ts';
import './alltoall-pairwise.ts';
import './barrier-dissemination.ts';
import './barrier-recursive-doubling.ts';
import './bcast-binomial.ts';
import './bcast-pipeline.ts';
import './bcast-split-binary.ts';
import './gather-binomial.ts';
import './gather-linear.ts';
import './gather-linear-sync.ts';
import './reduce-binary.ts';
import './reduce-binomial.ts';
import './reduce-linear.ts';
import './reduce-pipeline.ts';
import './scatter-binomial.ts';
import './scatter-linear.ts';

export const tunedBcast = (rank: Rank, a: BcastArgs): Program<void> => runChoice(rank, rules.bcastDecision(a.bytes, rank.size), a);
export const tunedReduce = (rank: Rank, a: ReduceArgs): Program<void> => runChoice(rank, rules.reduceDecision(a.bytes, rank.size), a);
export const tunedAllreduce = (rank: Rank, a: AllreduceArgs): Program<void> => runChoice(rank, rules.allreduceDecision(a.bytes, rank.size), a);
export const tunedAllgather = (rank: Rank, a: AllgatherArgs): Program<void> => runChoice(rank, rules.allgatherDecision(a.bytes, rank.size), a);
export const tunedAlltoall = (rank: Rank, a: AlltoallArgs): Program<void> => runChoice(rank, rules.alltoallDecision(a.bytes, rank.size), a);
export const tunedGather = (rank: Rank, a: GatherArgs): Program<void> => runChoice(rank, rules.gatherDecision(a.bytes, rank.size), a);
export const tunedScatter = (rank: Rank, a: ScatterArgs): Program<void> => runChoice(rank, rules.scatterDecision(a.bytes, rank.size), a);
export const tunedBarrier = (rank: Rank, a: BarrierArgs): Program<void> => runChoice(rank, rules.barrierDecision(rank.size), a);

const programs: Array<[operation: string, program: (rank: Rank, args: any) => Program<void>]> = [
  ['bcast', tunedBcast],
  ['reduce', tunedReduce],
  ['allreduce', tunedAllreduce],
  ['allgather', tunedAllgather],
  ['alltoall', tunedAlltoall],
  ['gather', tunedGather],
  ['scatter', tunedScatter],
  ['barrier', tunedBarrier],
];

for (const [operation, program] of programs) {
  registerAlgorithm({
    name: `${operation}:tuned`,
    operation,
    description: `Open MPI tuned: picks a coll_base ${operation} algorithm by message and communicator size (fixed rules, v4.0)`,
    params: [],
    program,
  });
}
