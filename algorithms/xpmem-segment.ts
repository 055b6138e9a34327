// XPMEM libraries (MVAPICH2-XPMEM) expose a process's buffer once (xpmem_make) and keep the segment
// id for every later message or collective that uses it, so a buffer becomes a segment on its first
// use only. The ids are kept with the run's state, as its buffers are.
import { RunState } from '../sim/node/run-state.ts';
import type { Buffer, Program, Rank, XpmemSegid } from '../sim/node/rank-api.ts';

const SEGMENTS = new RunState('exposed xpmem segments', () => new Map<Buffer, XpmemSegid>());

/** The segment id of `buf`, made by its owner `rank` on first use. */
export function* exposedSegment(rank: Rank, buf: Buffer): Program<XpmemSegid> {
  const segments = rank.runState(SEGMENTS);
  let segid = segments.get(buf);
  if (segid === undefined) {
    segid = yield* rank.xpmem.make(buf);
    segments.set(buf, segid);
  }
  return segid;
}
