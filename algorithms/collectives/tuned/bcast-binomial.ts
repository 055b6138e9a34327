// Binomial-tree broadcast (ompi_coll_base_bcast_intra_binomial): the generic segmented tree bcast
// on the binomial tree; ceil(log2 N) rounds, the root sending to ceil(log2 N) children.
import { bcastOn } from './on-tree.ts';
import { binomialTree } from './trees.ts';

export const bcastBinomial = bcastOn({
  name: 'binomial',
  description: 'binomial tree on rank order, optionally segmented (Open MPI coll_base)',
  segsize: {
    default: 0,
    description: 'segment size; 0 sends the whole message at once (the fixed rules use 0 for small messages)',
  },
  tree: binomialTree,
});
