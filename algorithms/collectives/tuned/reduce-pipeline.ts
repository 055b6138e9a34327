// ompi_coll_base_reduce_intra_pipeline: the generic segmented reduction on a chain, partial sums
// flowing toward the root one segment behind another.
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import { defineAlgorithm, type ParamInfo } from '../../algorithm.ts';
import type { ReduceArgs } from '../args.ts';
import { intParam } from '../params.ts';
import { reduceOnTree } from './reduce-generic.ts';
import { chainTree } from './trees.ts';

const segsize: ParamInfo = {
  name: 'segsize', kind: 'bytes', default: 8192, min: 1,
  description: 'segment size (the fixed rules pick 1, 32 or 64 KiB)',
};

export function* pipelineReduce(rank: Rank, args: ReduceArgs): Program<void> {
  const tree = chainTree(rank.id, args.root, rank.size);
  yield* reduceOnTree(rank, args, tree, intParam(args.params, segsize, 'reduce:pipeline'));
}

export const reducePipeline = defineAlgorithm({
  name: 'reduce:pipeline',
  operation: 'reduce',
  description: 'segmented chain along rank order (Open MPI coll_base pipeline)',
  params: [segsize],
  test: { params: { segsize: { values: [100, 1000, 1024, 4096] } } },
  program: pipelineReduce,
});
