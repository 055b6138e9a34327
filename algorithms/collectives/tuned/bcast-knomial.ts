// K-nomial-tree broadcast (ompi_coll_base_bcast_intra_knomial, Open MPI 4.1): the generic segmented
// tree bcast on the k-nomial tree (trees.ts), where a node sends to radix-1 children per level.
import type { ParamInfo } from '../../algorithm.ts';
import { intParam } from '../params.ts';
import { bcastOnTree } from './bcast-generic.ts';
import { collBase } from './coll-base.ts';
import { knomialTree } from './trees.ts';

const NAME = 'bcast:knomial';

const segsize: ParamInfo = {
  name: 'segsize',
  kind: 'bytes',
  default: 0,
  min: 0,
  description: "segment size; 0 sends the whole message at once (Open MPI 4.1's fixed rules always use 0)",
};

const radix: ParamInfo = {
  name: 'radix',
  kind: 'integer',
  default: 4,
  min: 2,
  description: 'children per level of the tree, less one (coll_tuned_bcast_knomial_radix, default 4)',
};

export const bcastKnomial = collBase(
  'bcast',
  'knomial',
  'k-nomial tree on rank order, optionally segmented (Open MPI coll_base knomial)',
  (rank, args) =>
    bcastOnTree(
      rank,
      args.buffer,
      knomialTree(intParam(args.params, radix, NAME), rank.id, args.root, rank.size),
      intParam(args.params, segsize, NAME),
    ),
  {
    params: [segsize, radix],
    test: { params: { segsize: { values: [0, 100, 1024, 4096] }, radix: { values: [2, 3, 4, 5] } } },
  },
);
