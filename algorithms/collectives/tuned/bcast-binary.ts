// Binary-tree broadcast (ompi_coll_base_bcast_intra_bintree): the generic segmented tree bcast on
// the binary tree of ompi_coll_base_topo_build_tree(2), each node sending to at most two children.
import { bcastOn } from './on-tree.ts';
import { kAryTree } from './trees.ts';

export const bcastBinary = bcastOn({
  name: 'binary',
  description: 'binary tree on rank order, optionally segmented (Open MPI coll_base bintree)',
  segsize: {
    default: 0,
    description: "segment size; 0 sends the whole message at once (Open MPI 4.1's fixed rules always use 0)",
  },
  tree: (rank, root, size) => kAryTree(2, rank, root, size),
});
