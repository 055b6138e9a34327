// Pipelined chain broadcast (ompi_coll_base_bcast_intra_pipeline): the generic segmented bcast on a
// chain root -> root+1 -> ... , so after the pipeline fills every link carries a segment at once.
import { bcastOn } from './on-tree.ts';
import { chainTree } from './trees.ts';

export const bcastPipeline = bcastOn({
  name: 'pipeline',
  description: 'segmented chain along rank order (Open MPI coll_base pipeline)',
  segsize: {
    default: 8192,
    description: 'segment size (the fixed rules pick 8 KiB to 128 KiB, growing with the message)',
  },
  tree: chainTree,
});
