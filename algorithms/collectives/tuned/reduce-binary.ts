// ompi_coll_base_reduce_intra_binary: the generic segmented reduction on a binary tree.
import { reduceOn } from './on-tree.ts';
import { kAryTree } from './trees.ts';

export const reduceBinary = reduceOn({
  name: 'binary',
  description: 'segmented binary tree on rank order (Open MPI coll_base binary)',
  segsize: { default: 32768, description: 'segment size (the fixed rules use 32 KiB)' },
  tree: (rank, root, size) => kAryTree(2, rank, root, size),
});
