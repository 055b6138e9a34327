// CMA scatter and scatterv (Ma et al. 2010, seed 000, §IV.B, with CMA in place of KNEM): the root
// sends the address of its send buffer out of band and each non-root rank reads only its own block
// with process_vm_readv (receiver-reading, in parallel); the root copies its own block with a plain
// memcpy and returns once every reader is done. The staggered variant admits the readers in waves
// of `concurrency`, each wave done before the next starts, so at most that many queue on the
// root's page-table lock (seed 001).
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import type { ScatterArgs, ScattervArgs } from '../args.ts';
import { withEqualBlocks } from '../blocks.ts';
import { cmaDesigns } from './designs.ts';
import type { Concurrency } from './params.ts';
import { cmaRootedOf } from './rooted.ts';

function scatterv(concurrency: Concurrency) {
  return function* (rank: Rank, { send, recv, counts, displs, root, params }: ScattervArgs): Program<void> {
    yield* cmaRootedOf(rank, 'scatter', root, send, recv, counts, displs, concurrency(params));
  };
}

const scatter = (concurrency: Concurrency) => (rank: Rank, args: ScatterArgs) => scatterv(concurrency)(rank, withEqualBlocks(args, rank.size));

export const [scatterCmaLinear, scatterCmaStaggered] = cmaDesigns('scatter', scatter, {
  linear: "root sends its send buffer's address; each rank reads its own block with process_vm_readv, all at once (Ma et al. 2010 §IV.B over CMA)",
  staggered: 'as scatter:cma-linear, the readers admitted in waves of `concurrency` (limits page-table lock contention, seed 001)',
});

export const [scattervCmaLinear, scattervCmaStaggered] = cmaDesigns('scatterv', scatterv, {
  linear: "root sends its send buffer's address; each rank reads its block at its displacement with process_vm_readv, all at once",
  staggered: 'as scatterv:cma-linear, the readers admitted in waves of `concurrency` (limits page-table lock contention, seed 001)',
});
