// `<op>:tuned`: Open MPI's tuned component with its fixed decision rules (decision.ts). Every rank
// evaluates the same rule on the same sizes, so all ranks run the same algorithm.
import type { Algorithm, Defined } from '../../algorithm.ts';
import { defineAlgorithm } from '../../algorithm.ts';
import { byOperation } from '../../build-catalogue.ts';
import type { ArgsOf } from '../../operations.ts';
import type { CollectiveArgs } from '../args.ts';
import * as rules from './decision.ts';
import type { Choice } from './decision.ts';
import { runChoice } from './dispatch.ts';
import { collBaseAlgorithms, TUNED_TEST } from './index.ts';
import { testedWith } from '../../property-hints.ts';

/** The coll_base algorithms of each operation, which the rules pick among. */
const collBase = byOperation(collBaseAlgorithms);

function tuned<Op extends keyof CollectiveArgs>(
  operation: Op,
  decide: (args: ArgsOf<Op>, size: number) => Choice,
): Defined<Op> {
  const among = collBase(operation);
  return defineAlgorithm({
    name: `${operation}:tuned`,
    operation,
    description: `Open MPI tuned: picks a coll_base ${operation} algorithm by message and communicator size (fixed rules, v4.0)`,
    params: [],
    // As the alltoall algorithms it picks among: N^2 messages, so fewer ranks.
    test: operation === 'alltoall' ? { maxRanks: 24 } : undefined,
    program: (rank, args) => runChoice(rank, decide(args, rank.size), args, among),
  });
}

export const tunedAlgorithms: readonly Algorithm[] = testedWith(TUNED_TEST, [
  tuned('bcast', (a, n) => rules.bcastDecision(a.bytes, n)),
  tuned('reduce', (a, n) => rules.reduceDecision(a.bytes, n)),
  tuned('allreduce', (a, n) => rules.allreduceDecision(a.bytes, n)),
  tuned('allgather', (a, n) => rules.allgatherDecision(a.bytes, n)),
  tuned('alltoall', (a, n) => rules.alltoallDecision(a.bytes, n)),
  tuned('gather', (a, n) => rules.gatherDecision(a.bytes, n)),
  tuned('scatter', (a, n) => rules.scatterDecision(a.bytes, n)),
  tuned('barrier', (_, n) => rules.barrierDecision(n)),
]);
