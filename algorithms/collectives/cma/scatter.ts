// CMA scatter and scatterv (Ma et al. 2010, seed 000, §IV.B, with CMA in place of KNEM): the root
// sends the address of its send buffer out of band and each non-root rank reads only its own block
// with process_vm_readv (receiver-reading, in parallel); the root copies its own block with a plain
// memcpy and returns once every reader is done. The staggered variant admits the readers in waves
// of `concurrency`, each wave done before the next starts, so at most that many queue on the
// root's page-table lock (seed 001).
import type { Program, Range, Rank } from '../../../sim/node/rank-api.ts';
import type { ScatterArgs, ScattervArgs } from '../args.ts';
import { defineAlgorithm } from '../../algorithm.ts';
import { equalBlocks, part } from '../blocks.ts';
import { readFrom } from './iov.ts';
import { concurrencyParam, linear, staggered, type Concurrency } from './params.ts';
import { waves } from './schedule.ts';

/** Rank r receives `counts[r]` bytes from `displs[r]` of the root's `send`; ranks with nothing to receive take no part. */
export function* cmaScatterOf(rank: Rank, root: number, send: Range | undefined, recv: Range, counts: number[], displs: number[], concurrency: number): Program<void> {
  if (rank.id === root) {
    if (!send) throw new Error(`scatter: root ${root} has no send buffer`);
    if (counts[root] > 0) yield* rank.copy(part(send, displs[root], counts[root]), recv, 'scatter: own block');
    const readers = counts.flatMap((c, r) => (r !== root && c > 0 ? [r] : []));
    for (const wave of waves(readers, concurrency)) {
      for (const r of wave) yield* rank.control.send(r, send); // the address of the send buffer
      for (const r of wave) yield* rank.control.recv(r); // done reading
    }
  } else if (counts[rank.id] > 0) {
    const theirs = (yield* rank.control.recv(root)) as Range;
    yield* readFrom(rank, root, recv, part(theirs, displs[rank.id], counts[rank.id]));
    yield* rank.control.send(root, 'done');
  }
}

function scatter(concurrency: Concurrency) {
  return function* (rank: Rank, { send, recv, bytes, root, params }: ScatterArgs): Program<void> {
    const { counts, displs } = equalBlocks(rank.size, bytes);
    yield* cmaScatterOf(rank, root, send, recv, counts, displs, concurrency(params));
  };
}

function scatterv(concurrency: Concurrency) {
  return function* (rank: Rank, { send, recv, counts, displs, root, params }: ScattervArgs): Program<void> {
    yield* cmaScatterOf(rank, root, send, recv, counts, displs, concurrency(params));
  };
}

export const scatterCmaLinear = defineAlgorithm({
  name: 'scatter:cma-linear',
  operation: 'scatter',
  description: "root sends its send buffer's address; each rank reads its own block with process_vm_readv, all at once (Ma et al. 2010 §IV.B over CMA)",
  params: [],
  program: scatter(linear),
});

export const scattervCmaLinear = defineAlgorithm({
  name: 'scatterv:cma-linear',
  operation: 'scatterv',
  description: "root sends its send buffer's address; each rank reads its block at its displacement with process_vm_readv, all at once",
  params: [],
  program: scatterv(linear),
});

export const scatterCmaStaggered = defineAlgorithm({
  name: 'scatter:cma-staggered',
  operation: 'scatter',
  description: 'as scatter:cma-linear, the readers admitted in waves of `concurrency` (limits page-table lock contention, seed 001)',
  params: [concurrencyParam],
  test: { params: { concurrency: { integers: { min: 1, max: 6 } } } },
  program: scatter(staggered('scatter:cma-staggered')),
});

export const scattervCmaStaggered = defineAlgorithm({
  name: 'scatterv:cma-staggered',
  operation: 'scatterv',
  description: 'as scatterv:cma-linear, the readers admitted in waves of `concurrency` (limits page-table lock contention, seed 001)',
  params: [concurrencyParam],
  test: { params: { concurrency: { integers: { min: 1, max: 6 } } } },
  program: scatterv(staggered('scatterv:cma-staggered')),
});
