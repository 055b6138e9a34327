// Hierarchical KNEM allgather (Ma et al. 2010, seed 000, §V-VI): the linear KNEM gather to rank 0,
// then the topology- and NUMA-aware pipelined broadcast of the gathered buffer from rank 0.
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import type { AllgatherArgs } from '../args.ts';
import { defineAlgorithm } from '../../algorithm.ts';
import { equalBlocks } from '../blocks.ts';
import { knemHierarchicalBcastOf } from './hierarchical-bcast.ts';
import { knemGatherToZero } from './linear-allgather.ts';
import { HIERARCHICAL_TEST, segmentOf, segmentParam } from './params.ts';

export function* knemHierarchicalAllgather(rank: Rank, { send, recv, bytes, params }: AllgatherArgs): Program<void> {
  const segment = segmentOf('allgather:knem-hierarchical', params);
  const { counts, displs } = equalBlocks(rank.size, bytes);
  yield* knemGatherToZero(rank, send, recv, counts, displs);
  yield* knemHierarchicalBcastOf(rank, 0, recv, segment);
}

export const allgatherKnemHierarchical = defineAlgorithm({
  name: 'allgather:knem-hierarchical',
  operation: 'allgather',
  description: 'KNEM gather to rank 0, then the NUMA-aware pipelined KNEM broadcast from rank 0 (Ma et al. 2010, §V)',
  params: [segmentParam],
  test: HIERARCHICAL_TEST,
  program: knemHierarchicalAllgather,
});
