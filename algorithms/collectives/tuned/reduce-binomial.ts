// ompi_coll_base_reduce_intra_binomial: the generic segmented reduction on the binomial tree.
import { reduceOn } from './on-tree.ts';
import { binomialTree } from './trees.ts';

export const reduceBinomial = reduceOn({
  name: 'binomial',
  description: 'binomial tree on rank order, optionally segmented (Open MPI coll_base)',
  segsize: {
    default: 0,
    description: 'segment size; 0 reduces the whole message at once (the fixed rules use 0 and 1 KiB)',
  },
  tree: binomialTree,
});
