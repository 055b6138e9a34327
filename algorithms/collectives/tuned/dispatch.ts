// Runs the algorithm a decision rule picked, with the rule's parameters over the caller's.
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import type { AlgorithmInfo } from '../../algorithm.ts';
import type { ArgsOf } from '../../operations.ts';
import type { CollectiveArgs } from '../args.ts';
import type { Choice } from './decision.ts';

/** `among`: the algorithms the rules of this operation may pick. */
export function* runChoice<Op extends keyof CollectiveArgs>(
  rank: Rank,
  choice: Choice,
  args: ArgsOf<Op>,
  among: ReadonlyArray<AlgorithmInfo<Op>>,
): Program<void> {
  const info = among.find((a) => a.name === choice.algorithm);
  if (!info)
    throw new Error(
      `tuned: the rules picked ${choice.algorithm}, which is not among ${among.map((a) => a.name).join(', ')}`,
    );
  yield* info.program(rank, { ...args, params: { ...args.params, ...choice.params } });
}
