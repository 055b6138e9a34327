// Linear KNEM broadcast (Ma et al. 2010, seed 000, §IV.A): (1) the root declares its send buffer to
// KNEM and gets a cookie, (2) passes the cookie to every other rank out of band, (3) each receiver
// hands the cookie and its receive buffer to KNEM, (4) which copies in the kernel. Every receiver
// copies at the same time (receiver-reading), so the root serialises nothing: O(T) (Table I).
// The root destroys its region only once every reader has reported done.
import type { KnemCookie, Program, Range, Rank } from '../../../sim/node/rank-api.ts';
import type { BcastArgs } from '../args.ts';
import { defineAlgorithm } from '../../algorithm.ts';
import { pull } from './copy.ts';

/**
 * The broadcast of `segments` (the root's source, every other rank's destination, the same total
 * length on every rank). A list of segments is one vectorial KNEM region: allgatherv uses it to move
 * only the blocks, never the gaps between them.
 */
export function* knemLinearBcastOf(rank: Rank, root: number, segments: Range[]): Program<void> {
  const bytes = segments.reduce((n, s) => n + s.bytes, 0);
  if (rank.size === 1 || bytes === 0) return;
  if (rank.id === root) {
    const cookie = yield* rank.knem.createRegion(segments, { read: true });
    yield* rank.control.bcast(root, cookie);
    yield* rank.control.gather(root); // every reader is done
    yield* rank.knem.destroyRegion(cookie);
  } else {
    const cookie = yield* rank.control.bcast<KnemCookie>(root);
    yield* pull(rank, cookie, 0, segments);
    yield* rank.control.gather(root, 'done');
  }
}

export function* knemLinearBcast(rank: Rank, { buffer, root }: BcastArgs): Program<void> {
  yield* knemLinearBcastOf(rank, root, [buffer]);
}

export const bcastKnemLinear = defineAlgorithm({
  name: 'bcast:knem-linear',
  operation: 'bcast',
  description:
    'root declares its buffer as a KNEM region once; every other rank pulls it in parallel (Ma et al. 2010, §IV.A)',
  params: [],
  program: knemLinearBcast,
});
