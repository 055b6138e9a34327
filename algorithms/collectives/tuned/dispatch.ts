// Runs the algorithm a decision rule picked, with the rule's parameters over the caller's.
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import { findAlgorithm } from '../../registry.ts';
import type { Choice } from './decision.ts';

export function* runChoice<A extends { params: Record<string, unknown> }>(rank: Rank, choice: Choice, args: A): Program<void> {
  const info = findAlgorithm(choice.algorithm);
  if (!info) throw new Error(`tuned: the rules picked ${choice.algorithm}, which is not registered`);
  yield* info.program(rank, { ...args, params: { ...args.params, ...choice.params } });
}
