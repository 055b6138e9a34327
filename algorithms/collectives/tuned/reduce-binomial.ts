// ompi_coll_base_reduce_intra_binomial: the generic segmented reduction on the in-order binomial tree
// (COLL_BASE_UPDATE_IN_ORDER_BMTREE, coll_base_reduce.c; COLL_TUNED_UPDATE_IN_ORDER_BMTREE in 1.3-1.6),
// not the broadcast's binomial tree: rank 1 is a leaf, and each subtree holds consecutive ranks.
import { reduceOn } from './on-tree.ts';
import { inOrderBinomialTree } from './trees.ts';

export const reduceBinomial = reduceOn({
  name: 'binomial',
  description: 'in-order binomial tree, optionally segmented (Open MPI coll_base)',
  segsize: {
    default: 0,
    description: 'segment size; 0 reduces the whole message at once (the fixed rules use 0 and 1 KiB)',
  },
  tree: inOrderBinomialTree,
});
