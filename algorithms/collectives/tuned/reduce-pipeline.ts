// ompi_coll_base_reduce_intra_pipeline: the generic segmented reduction on a chain, partial sums
// flowing toward the root one segment behind another.
import { reduceOn } from './on-tree.ts';
import { chainTree } from './trees.ts';

export const reducePipeline = reduceOn({
  name: 'pipeline',
  description: 'segmented chain along rank order (Open MPI coll_base pipeline)',
  segsize: { default: 8192, description: 'segment size (the fixed rules pick 1, 32 or 64 KiB)' },
  tree: chainTree,
});
