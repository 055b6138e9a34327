// XPMEM broadcast: the root exposes its buffer and sends the segment out of band; every other rank
// attaches the root's buffer and copies it with plain loads and stores, all at once. Unlike CMA,
// no page is pinned per copy and no lock of the root is taken per read (seed 001: "XPMEM based
// reads do not have locking overheads"); only xpmem_get on a cache miss queues on the root's
// segment lock. The root returns once every reader is done.
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import type { BcastArgs } from '../args.ts';
import { defineAlgorithm } from '../../algorithm.ts';
import { expose, withAttached, type Exposed } from './expose.ts';

export function* xpmemBcast(rank: Rank, { buffer, bytes, root }: BcastArgs): Program<void> {
  if (rank.size === 1 || bytes === 0) return;
  if (rank.id === root) {
    yield* rank.control.bcast(root, yield* expose(rank, buffer));
    yield* rank.control.gather(root); // every reader is done
  } else {
    const theirs = yield* rank.control.bcast<Exposed>(root);
    yield* withAttached(rank, root, theirs, 0, bytes, (view) => rank.copy(view, buffer, 'bcast: xpmem read'));
    yield* rank.control.gather(root, 'done');
  }
}

export const bcastXpmem = defineAlgorithm({
  name: 'bcast:xpmem',
  operation: 'bcast',
  description:
    'root exposes its buffer; every other rank attaches it through XPMEM and copies it, all at once (seed 001)',
  params: [],
  program: xpmemBcast,
});
