// ompi_coll_base_reduce_intra_binomial: the generic segmented reduction on the binomial tree.
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import { defineAlgorithm, type ParamInfo } from '../../algorithm.ts';
import type { ReduceArgs } from '../args.ts';
import { intParam } from '../params.ts';
import { reduceOnTree } from './reduce-generic.ts';
import { binomialTree } from './trees.ts';

const segsize: ParamInfo = {
  name: 'segsize', kind: 'bytes', default: 0, min: 0,
  description: 'segment size; 0 reduces the whole message at once (the fixed rules use 0 and 1 KiB)',
};

export function* binomialReduce(rank: Rank, args: ReduceArgs): Program<void> {
  const tree = binomialTree(rank.id, args.root, rank.size);
  yield* reduceOnTree(rank, args, tree, intParam(args.params, segsize, 'reduce:binomial'));
}

export const reduceBinomial = defineAlgorithm({
  name: 'reduce:binomial',
  operation: 'reduce',
  description: 'binomial tree on rank order, optionally segmented (Open MPI coll_base)',
  params: [segsize],
  test: { params: { segsize: { values: [0, 100, 1024, 4096] } } },
  program: binomialReduce,
});
