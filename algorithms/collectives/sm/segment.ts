// Each rank's shared-memory segment: `slots` fragment slots that its tree neighbours copy from
// directly. In coll/sm this is one mmap'ed file per communicator; here each rank allocates its part
// (first touch puts the pages on its NUMA node) and hands slot ranges to the readers in control
// messages, which is all a mapped segment gives a reader: an address it may load from.
import type { Buffer, Range, Rank } from '../../../sim/node/rank-api.ts';
import { range } from '../../../sim/node/buffer.ts';
import { keptBuffer } from '../kept-buffers.ts';
import type { SmConfig } from './config.ts';

/** This rank's segment for this configuration, created on first use and kept for the run. */
export function segmentOf(rank: Rank, cfg: SmConfig): Buffer {
  return keptBuffer(rank, `sm.segment ${cfg.segsize}x${cfg.slots}`, cfg.segsize * cfg.slots);
}

/** The slot fragment `f` (of `bytes` bytes) goes through. */
export function slotOf(segment: Buffer, cfg: SmConfig, f: number, bytes: number): Range {
  return range(segment, (f % cfg.slots) * cfg.segsize, bytes);
}

/** Message a reader sends the writer when it has finished with a slot. */
export const SLOT_FREE = 'slot free';
