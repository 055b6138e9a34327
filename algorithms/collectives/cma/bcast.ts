// CMA broadcast.
// Linear (Ma et al. 2010, seed 000, §IV.A, with CMA in place of KNEM): the root sends the address
// of its buffer to every other rank out of band, each of them reads it with process_vm_readv, all
// at once, and reports done; the root returns once every reader has (its buffer must not change
// while it is read). No region and no cookie: CMA needs only the address, but every reader pins the
// root's pages under the root's page-table lock, so N readers queue there (seed 001).
// Staggered: the same reads along a k-nomial tree (schedule.ts): a rank that has the data serves at
// most `concurrency` readers at a time, so no process's lock sees more than that many.
import type { Program, Range, Rank } from '../../../sim/node/rank-api.ts';
import type { BcastArgs } from '../args.ts';
import { defineAlgorithm } from '../../algorithm.ts';
import { readFrom, totalBytes } from './iov.ts';
import { concurrencyOf, concurrencyParam } from './params.ts';
import { servingTree } from './schedule.ts';

/**
 * Broadcast of `segments` (the root's source, every other rank's destination, the same layout on
 * every rank) with at most `concurrency` readers of any one process at a time; Infinity: linear.
 * A list of segments moves as one vectorial readv, so allgatherv never touches the gaps.
 */
export function* cmaBcastOf(rank: Rank, root: number, segments: Range[], concurrency: number): Program<void> {
  if (rank.size === 1 || totalBytes(segments) === 0) return;
  const tree = servingTree(rank.size, root, concurrency);
  const parent = tree.parent(rank.id);
  if (parent !== undefined) {
    const theirs = (yield* rank.control.recv(parent)) as Range[];
    yield* readFrom(rank, parent, segments, theirs);
    yield* rank.control.send(parent, 'done');
  }
  for (const readers of tree.rounds(rank.id)) {
    for (const r of readers) yield* rank.control.send(r, segments); // the address of the data
    for (const r of readers) yield* rank.control.recv(r); // done reading
  }
}

export function* cmaLinearBcast(rank: Rank, { buffer, root }: BcastArgs): Program<void> {
  yield* cmaBcastOf(rank, root, [buffer], Infinity);
}

export function* cmaStaggeredBcast(rank: Rank, { buffer, root, params }: BcastArgs): Program<void> {
  yield* cmaBcastOf(rank, root, [buffer], concurrencyOf('bcast:cma-staggered', params));
}

export const bcastCmaLinear = defineAlgorithm({
  name: 'bcast:cma-linear',
  operation: 'bcast',
  description:
    "root sends its buffer's address out of band; every other rank reads it with process_vm_readv, all at once (Ma et al. 2010 §IV.A over CMA)",
  params: [],
  program: cmaLinearBcast,
});

export const bcastCmaStaggered = defineAlgorithm({
  name: 'bcast:cma-staggered',
  operation: 'bcast',
  description:
    'CMA reads along a k-nomial tree: ranks that have the data serve at most `concurrency` readers at a time (limits page-table lock contention, seed 001)',
  params: [concurrencyParam],
  test: { params: { concurrency: { integers: { min: 1, max: 6 } } } },
  program: cmaStaggeredBcast,
});
