// XPMEM libraries (MVAPICH2-XPMEM) expose a process's buffer once (xpmem_make) and keep the segment
// id for every later message or collective that uses it, so a buffer becomes a segment on its first
// use only. Buffers belong to one run, so a weak map keyed by buffer scopes the ids to that run.
import type { Buffer, Program, Rank, XpmemSegid } from '../sim/node/rank-api.ts';

const segments = new WeakMap<Buffer, XpmemSegid>();

/** The segment id of `buf`, made by its owner `rank` on first use. */
export function* exposedSegment(rank: Rank, buf: Buffer): Program<XpmemSegid> {
  let segid = segments.get(buf);
  if (segid === undefined) {
    segid = yield* rank.xpmem.make(buf);
    segments.set(buf, segid);
  }
  return segid;
}
