// XPMEM segments of the collectives' buffers (Hashmi et al., seed 001): every process exposes its
// buffers and tells its peers the segment ids out of band; a peer attaches the part it needs
// (through the registration cache when it is on) and reads or writes it with plain loads and
// stores: `rank.copy` and `rank.reduce` on the attached view.
import type { Program, Range, Rank, XpmemSegid } from '../../../sim/node/rank-api.ts';
import { exposedSegment } from '../../xpmem-segment.ts';

/** What a peer needs to reach a rank's buffer range: its segment and where the range starts. */
export interface Exposed {
  segid: XpmemSegid;
  offset: number;
}

/** Exposes the buffer of `r` (once per buffer, see xpmem-segment.ts) and says where `r` starts in it. */
export function* expose(rank: Rank, r: Range): Program<Exposed> {
  return { segid: yield* exposedSegment(rank, r.buf), offset: r.offset };
}

/** Attaches `bytes` at `offset` of a peer's exposed range; returns the view to copy from or into. */
export function attach(rank: Rank, owner: number, at: Exposed, offset: number, bytes: number): Program<Range> {
  return rank.xpmem.attach(owner, at.segid, at.offset + offset, bytes);
}

/** Runs `use` on the attached view, then detaches it (lazily, with the registration cache on). */
export function* withAttached(
  rank: Rank,
  owner: number,
  at: Exposed,
  offset: number,
  bytes: number,
  use: (view: Range) => Program<void>,
): Program<void> {
  if (bytes === 0) return;
  const view = yield* attach(rank, owner, at, offset, bytes);
  yield* use(view);
  yield* rank.xpmem.detach(view);
}
