// CMA gather and gatherv (Ma et al. 2010, seed 000, §IV.B, with CMA in place of KNEM): the opposite
// of the scatter. The root sends the address of its receive buffer out of band and every non-root
// rank writes its block there with process_vm_writev (sender-writing), so the copies run in
// parallel on the senders' cores; the root copies its own block with a plain memcpy and returns
// once every writer is done. writev pins the root's pages under the same page-table lock as readv,
// so the staggered variant admits the writers in waves of `concurrency` (seed 001).
import type { Program, Range, Rank } from '../../../sim/node/rank-api.ts';
import type { GatherArgs, GathervArgs } from '../args.ts';
import { defineAlgorithm } from '../../algorithm.ts';
import { equalBlocks, part } from '../blocks.ts';
import { writeTo } from './iov.ts';
import { concurrencyParam, linear, staggered, type Concurrency } from './params.ts';
import { waves } from './schedule.ts';

/** Rank r's `send` (counts[r] bytes) lands at `displs[r]` of the root's `recv`; ranks with nothing to send take no part. */
export function* cmaGatherOf(rank: Rank, root: number, send: Range, recv: Range | undefined, counts: number[], displs: number[], concurrency: number): Program<void> {
  if (rank.id === root) {
    if (!recv) throw new Error(`gather: root ${root} has no receive buffer`);
    if (counts[root] > 0) yield* rank.copy(send, part(recv, displs[root], counts[root]), 'gather: own block');
    const writers = counts.flatMap((c, r) => (r !== root && c > 0 ? [r] : []));
    for (const wave of waves(writers, concurrency)) {
      for (const r of wave) yield* rank.control.send(r, recv); // the address of the receive buffer
      for (const r of wave) yield* rank.control.recv(r); // done writing
    }
  } else if (counts[rank.id] > 0) {
    const theirs = (yield* rank.control.recv(root)) as Range;
    yield* writeTo(rank, root, send, part(theirs, displs[rank.id], counts[rank.id]));
    yield* rank.control.send(root, 'done');
  }
}

function gather(concurrency: Concurrency) {
  return function* (rank: Rank, { send, recv, bytes, root, params }: GatherArgs): Program<void> {
    const { counts, displs } = equalBlocks(rank.size, bytes);
    yield* cmaGatherOf(rank, root, send, recv, counts, displs, concurrency(params));
  };
}

function gatherv(concurrency: Concurrency) {
  return function* (rank: Rank, { send, recv, counts, displs, root, params }: GathervArgs): Program<void> {
    yield* cmaGatherOf(rank, root, send, recv, counts, displs, concurrency(params));
  };
}

export const gatherCmaLinear = defineAlgorithm({
  name: 'gather:cma-linear',
  operation: 'gather',
  description: "root sends its receive buffer's address; every rank writes its block with process_vm_writev, all at once (Ma et al. 2010 §IV.B over CMA)",
  params: [],
  program: gather(linear),
});

export const gathervCmaLinear = defineAlgorithm({
  name: 'gatherv:cma-linear',
  operation: 'gatherv',
  description: "root sends its receive buffer's address; every rank writes its block at its displacement with process_vm_writev, all at once",
  params: [],
  program: gatherv(linear),
});

export const gatherCmaStaggered = defineAlgorithm({
  name: 'gather:cma-staggered',
  operation: 'gather',
  description: 'as gather:cma-linear, the writers admitted in waves of `concurrency` (limits page-table lock contention, seed 001)',
  params: [concurrencyParam],
  test: { params: { concurrency: { integers: { min: 1, max: 6 } } } },
  program: gather(staggered('gather:cma-staggered')),
});

export const gathervCmaStaggered = defineAlgorithm({
  name: 'gatherv:cma-staggered',
  operation: 'gatherv',
  description: 'as gatherv:cma-linear, the writers admitted in waves of `concurrency` (limits page-table lock contention, seed 001)',
  params: [concurrencyParam],
  test: { params: { concurrency: { integers: { min: 1, max: 6 } } } },
  program: gatherv(staggered('gatherv:cma-staggered')),
});
