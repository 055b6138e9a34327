// `<op>:tuned`: Open MPI's tuned component with its fixed decision rules: those of v1.3-v4.0
// (decision.ts) or, with `rules: v4.1`, the tables of v4.1 (decision-v41.ts) for the operations they
// are modelled for. Every rank evaluates the same rule on the same sizes, so all ranks run the same
// algorithm.
import type { Algorithm, Defined, ParamInfo } from '../../algorithm.ts';
import { defineAlgorithm } from '../../algorithm.ts';
import { byOperation } from '../../build-catalogue.ts';
import type { ArgsOf } from '../../operations.ts';
import type { CollectiveArgs } from '../args.ts';
import * as rules from './decision.ts';
import type { Choice } from './decision.ts';
import { v41Decision, type V41Operation } from './decision-v41.ts';
import { runChoice } from './dispatch.ts';
import { collBaseAlgorithms, TUNED_TEST } from './index.ts';
import { testedWith } from '../../property-hints.ts';

/** The coll_base algorithms of each operation, which the rules pick among. */
const collBase = byOperation(collBaseAlgorithms);

const RULES: ParamInfo = {
  name: 'rules',
  kind: 'choice',
  default: 'v4.0',
  choices: ['v4.0', 'v4.1'],
  description: "which Open MPI release's fixed rules: v4.0 (those of v1.3-v4.0) or v4.1 (its per-size tables)",
};

function tuned<Op extends keyof CollectiveArgs>(
  operation: Op,
  decide: (args: ArgsOf<Op>, size: number) => Choice,
  v41?: { op: V41Operation; bytes: (args: ArgsOf<Op>) => number },
): Defined<Op> {
  const among = collBase(operation);
  const choose = (args: ArgsOf<Op>, size: number): Choice =>
    v41 && args.params.rules === 'v4.1' ? v41Decision(v41.op, v41.bytes(args), size) : decide(args, size);
  return defineAlgorithm({
    name: `${operation}:tuned`,
    operation,
    description: `Open MPI tuned: picks a coll_base ${operation} algorithm by message and communicator size (fixed rules, v4.0${v41 ? ' or v4.1' : ''})`,
    params: v41 ? [RULES] : [],
    // As the alltoall algorithms it picks among: N^2 messages, so fewer ranks. Both sets of rules.
    test: {
      ...(operation === 'alltoall' ? { maxRanks: 24 } : {}),
      ...(v41 ? { params: { rules: { anyChoice: true } } } : {}),
    },
    program: (rank, args) => runChoice(rank, choose(args, rank.size), args, among),
  });
}

export const tunedAlgorithms: readonly Algorithm[] = testedWith(TUNED_TEST, [
  tuned('bcast', (a, n) => rules.bcastDecision(a.bytes, n), { op: 'bcast', bytes: (a) => a.bytes }),
  tuned('reduce', (a, n) => rules.reduceDecision(a.bytes, n)),
  tuned('allreduce', (a, n) => rules.allreduceDecision(a.bytes, n)),
  tuned('allgather', (a, n) => rules.allgatherDecision(a.bytes, n), { op: 'allgather', bytes: (a) => a.bytes }),
  tuned('alltoall', (a, n) => rules.alltoallDecision(a.bytes, n), { op: 'alltoall', bytes: (a) => a.bytes }),
  tuned('gather', (a, n) => rules.gatherDecision(a.bytes, n), { op: 'gather', bytes: (a) => a.bytes }),
  tuned('scatter', (a, n) => rules.scatterDecision(a.bytes, n), { op: 'scatter', bytes: (a) => a.bytes }),
  tuned('barrier', (_, n) => rules.barrierDecision(n)),
]);
