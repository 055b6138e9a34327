// The partitions of the XPMEM reductions (seed 001, "Parallel Intra-node Partitioned Reduce"):
// the message cut into one contiguous part per rank, sizes differing by at most one byte, so
// every rank reduces the same amount and rank i owns partition i.
import type { Range } from '../../../sim/node/rank-api.ts';
import { subRange } from '../../../sim/node/buffer.ts';

export interface Partition {
  offset: number;
  bytes: number;
}

export function partition(bytes: number, parts: number, i: number): Partition {
  const start = Math.floor((i * bytes) / parts);
  const end = Math.floor(((i + 1) * bytes) / parts);
  return { offset: start, bytes: end - start };
}

/** Partition `p` of a range. */
export function slice(r: Range, p: Partition): Range {
  return subRange(r, p.offset, p.bytes);
}
