// Pipelined chain broadcast (ompi_coll_base_bcast_intra_pipeline): the generic segmented bcast on a
// chain root -> root+1 -> ... , so after the pipeline fills every link carries a segment at once.
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import { defineAlgorithm, type ParamInfo } from '../../algorithm.ts';
import type { BcastArgs } from '../args.ts';
import { bcastOnTree } from './bcast-generic.ts';
import { intParam } from '../params.ts';
import { chainTree } from './trees.ts';

const segsize: ParamInfo = {
  name: 'segsize', kind: 'bytes', default: 8192, min: 1,
  description: 'segment size (the fixed rules pick 8 KiB to 128 KiB, growing with the message)',
};

export function* pipelineBcast(rank: Rank, args: BcastArgs): Program<void> {
  const tree = chainTree(rank.id, args.root, rank.size);
  yield* bcastOnTree(rank, args.buffer, tree, intParam(args.params, segsize, 'bcast:pipeline'));
}

export const bcastPipeline = defineAlgorithm({
  name: 'bcast:pipeline',
  operation: 'bcast',
  description: 'segmented chain along rank order (Open MPI coll_base pipeline)',
  params: [segsize],
  test: { params: { segsize: { values: [100, 1000, 1024, 4096] } } },
  program: pipelineBcast,
});
