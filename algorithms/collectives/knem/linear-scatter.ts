// Linear KNEM scatter and scatterv (Ma et al. 2010, seed 000, §IV.B): derived from the broadcast;
// the root declares its whole send buffer once and each non-root rank reads only its own block,
// at the offset its rank gives (scatterv: its displacement). Receiver-reading, all in parallel.
// The root copies its own block with a plain memcpy.
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import type { ScatterArgs, ScattervArgs } from '../args.ts';
import { defineAlgorithm } from '../../algorithm.ts';
import { withEqualBlocks } from '../blocks.ts';
import { knemLinearRootedOf } from './linear-rooted.ts';

export function* knemLinearScatterv(rank: Rank, { send, recv, counts, displs, root }: ScattervArgs): Program<void> {
  yield* knemLinearRootedOf(rank, 'scatter', root, send, recv, counts, displs);
}

export function knemLinearScatter(rank: Rank, args: ScatterArgs): Program<void> {
  return knemLinearScatterv(rank, withEqualBlocks(args, rank.size));
}

export const scatterKnemLinear = defineAlgorithm({
  name: 'scatter:knem-linear',
  operation: 'scatter',
  description: "root declares its send buffer once; each rank pulls its own block in parallel (Ma et al. 2010, §IV.B)",
  params: [],
  program: knemLinearScatter,
});

export const scattervKnemLinear = defineAlgorithm({
  name: 'scatterv:knem-linear',
  operation: 'scatterv',
  description: "root declares its send buffer once; each rank pulls its block at its displacement in parallel (Ma et al. 2010, §IV.B)",
  params: [],
  program: knemLinearScatterv,
});
