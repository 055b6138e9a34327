// K-nomial-tree broadcast (ompi_coll_base_bcast_intra_knomial, Open MPI 4.1): the generic segmented
// tree bcast on the k-nomial tree (trees.ts), where a node sends to radix-1 children per level.
import type { ParamInfo } from '../../algorithm.ts';
import { intParam } from '../params.ts';
import { bcastOn } from './on-tree.ts';
import { knomialTree } from './trees.ts';

const radix: ParamInfo = {
  name: 'radix',
  kind: 'integer',
  default: 4,
  min: 2,
  description: 'children per level of the tree, less one (coll_tuned_bcast_knomial_radix, default 4)',
};

export const bcastKnomial = bcastOn({
  name: 'knomial',
  description: 'k-nomial tree on rank order, optionally segmented (Open MPI coll_base knomial)',
  segsize: {
    default: 0,
    description: "segment size; 0 sends the whole message at once (Open MPI 4.1's fixed rules always use 0)",
  },
  tree: (rank, root, size, params) => knomialTree(intParam(params, radix, 'bcast:knomial'), rank, root, size),
  shape: [{ param: radix, draw: { values: [2, 3, 4, 5] } }],
});
