// Shared-memory barrier (Open MPI coll/sm, coll_sm_barrier.c): fan-in, each node waiting for all
// its children's flags before flagging its parent, then fan-out of the release from the root down
// the same fixed-degree tree.
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import { defineAlgorithm } from '../../algorithm.ts';
import type { BarrierArgs } from '../args.ts';
import { SM_BARRIER_PARAMS, smDegree } from './config.ts';
import { smTree } from './tree.ts';

export function* smBarrier(rank: Rank, { params }: BarrierArgs): Program<void> {
  const tree = smTree(rank.id, 0, rank.size, smDegree(params, 'barrier:sm'));
  for (const child of tree.children) yield* rank.control.recv(child);
  if (tree.parent >= 0) {
    yield* rank.control.send(tree.parent, 'in');
    yield* rank.control.recv(tree.parent);
  }
  for (const child of tree.children) yield* rank.control.send(child, 'out');
}

export const barrierSm = defineAlgorithm({
  name: 'barrier:sm',
  operation: 'barrier',
  description: 'fan-in then fan-out of flags on a fixed-degree rank-order tree (Open MPI coll/sm)',
  params: SM_BARRIER_PARAMS,
  program: smBarrier,
});
