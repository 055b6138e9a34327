// CMA gather and gatherv (Ma et al. 2010, seed 000, §IV.B, with CMA in place of KNEM): the opposite
// of the scatter. The root sends the address of its receive buffer out of band and every non-root
// rank writes its block there with process_vm_writev (sender-writing), so the copies run in
// parallel on the senders' cores; the root copies its own block with a plain memcpy and returns
// once every writer is done. writev pins the root's pages under the same page-table lock as readv,
// so the staggered variant admits the writers in waves of `concurrency` (seed 001).
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import type { GatherArgs, GathervArgs } from '../args.ts';
import { withEqualBlocks } from '../blocks.ts';
import { cmaDesigns } from './designs.ts';
import type { Concurrency } from './params.ts';
import { cmaRootedOf } from './rooted.ts';

function gatherv(concurrency: Concurrency) {
  return function* (rank: Rank, { send, recv, counts, displs, root, params }: GathervArgs): Program<void> {
    yield* cmaRootedOf(rank, 'gather', root, recv, send, counts, displs, concurrency(params));
  };
}

const gather = (concurrency: Concurrency) => (rank: Rank, args: GatherArgs) => gatherv(concurrency)(rank, withEqualBlocks(args, rank.size));

export const [gatherCmaLinear, gatherCmaStaggered] = cmaDesigns('gather', gather, {
  linear: "root sends its receive buffer's address; every rank writes its block with process_vm_writev, all at once (Ma et al. 2010 §IV.B over CMA)",
  staggered: 'as gather:cma-linear, the writers admitted in waves of `concurrency` (limits page-table lock contention, seed 001)',
});

export const [gathervCmaLinear, gathervCmaStaggered] = cmaDesigns('gatherv', gatherv, {
  linear: "root sends its receive buffer's address; every rank writes its block at its displacement with process_vm_writev, all at once",
  staggered: 'as gatherv:cma-linear, the writers admitted in waves of `concurrency` (limits page-table lock contention, seed 001)',
});
