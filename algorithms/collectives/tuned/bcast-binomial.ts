// Binomial-tree broadcast (ompi_coll_base_bcast_intra_binomial): the generic segmented tree bcast
// on the binomial tree; ceil(log2 N) rounds, the root sending to ceil(log2 N) children.
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import { defineAlgorithm, type ParamInfo } from '../../algorithm.ts';
import type { BcastArgs } from '../args.ts';
import { bcastOnTree } from './bcast-generic.ts';
import { intParam } from '../params.ts';
import { binomialTree } from './trees.ts';

const segsize: ParamInfo = {
  name: 'segsize', kind: 'bytes', default: 0, min: 0,
  description: 'segment size; 0 sends the whole message at once (the fixed rules use 0 for small messages)',
};

export function* binomialBcast(rank: Rank, args: BcastArgs): Program<void> {
  const tree = binomialTree(rank.id, args.root, rank.size);
  yield* bcastOnTree(rank, args.buffer, tree, intParam(args.params, segsize, 'bcast:binomial'));
}

export const bcastBinomial = defineAlgorithm({
  name: 'bcast:binomial',
  operation: 'bcast',
  description: 'binomial tree on rank order, optionally segmented (Open MPI coll_base)',
  params: [segsize],
  test: { params: { segsize: { values: [0, 100, 1024, 4096] } } },
  program: binomialBcast,
});
