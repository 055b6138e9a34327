// Each rank's shared-memory segment: `slots` fragment slots that its tree neighbours copy from
// directly. In coll/sm this is one mmap'ed file per communicator; here each rank allocates its part
// (first touch puts the pages on its NUMA node) and hands slot ranges to the readers in control
// messages, which is all a mapped segment gives a reader: an address it may load from.
import type { Buffer, Range, Rank } from '../../../sim/node/rank-api.ts';
import { range } from '../../../sim/node/buffer.ts';
import type { SmConfig } from './config.ts';

const segments = new WeakMap<Rank, Map<string, Buffer>>();

/** This rank's segment for this configuration, created on first use and kept for the run. */
export function segmentOf(rank: Rank, cfg: SmConfig): Buffer {
  let mine = segments.get(rank);
  if (!mine) {
    mine = new Map();
    segments.set(rank, mine);
  }
  const key = `${cfg.segsize}x${cfg.slots}`;
  let buf = mine.get(key);
  if (!buf) {
    buf = rank.alloc(`sm.segment ${key}`, cfg.segsize * cfg.slots);
    mine.set(key, buf);
  }
  return buf;
}

/** The slot fragment `f` (of `bytes` bytes) goes through. */
export function slotOf(segment: Buffer, cfg: SmConfig, f: number, bytes: number): Range {
  return range(segment, (f % cfg.slots) * cfg.segsize, bytes);
}

/** [offset, bytes] of each fragment of a message; none for an empty one. */
export function fragments(total: number, segsize: number): Array<[offset: number, bytes: number]> {
  const out: Array<[number, number]> = [];
  for (let at = 0; at < total; at += segsize) out.push([at, Math.min(segsize, total - at)]);
  return out;
}

/** Message a reader sends the writer when it has finished with a slot. */
export const SLOT_FREE = 'slot free';
