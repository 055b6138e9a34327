// ompi_coll_base_reduce_intra_binary: the generic segmented reduction on a binary tree.
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import { defineAlgorithm, type ParamInfo } from '../../algorithm.ts';
import type { ReduceArgs } from '../args.ts';
import { intParam } from '../params.ts';
import { reduceOnTree } from './reduce-generic.ts';
import { kAryTree } from './trees.ts';

const segsize: ParamInfo = {
  name: 'segsize', kind: 'bytes', default: 32768, min: 1,
  description: 'segment size (the fixed rules use 32 KiB)',
};

export function* binaryReduce(rank: Rank, args: ReduceArgs): Program<void> {
  const tree = kAryTree(2, rank.id, args.root, rank.size);
  yield* reduceOnTree(rank, args, tree, intParam(args.params, segsize, 'reduce:binary'));
}

export const reduceBinary = defineAlgorithm({
  name: 'reduce:binary',
  operation: 'reduce',
  description: 'segmented binary tree on rank order (Open MPI coll_base binary)',
  params: [segsize],
  test: { params: { segsize: { values: [100, 1000, 1024, 4096] } } },
  program: binaryReduce,
});
