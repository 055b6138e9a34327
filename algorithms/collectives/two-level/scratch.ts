// A leader's buffer for its group's partial reduction, kept from call to call as an MPI library
// keeps its collective scratch space, so repeated calls reuse the same (possibly cached) memory.
import type { Buffer, Range, Rank } from '../../../sim/node/rank-api.ts';
import { range } from '../../../sim/node/buffer.ts';

const kept = new WeakMap<Rank, Buffer>();

export function scratch(rank: Rank, bytes: number): Range {
  let buf = kept.get(rank);
  if (!buf || buf.size !== bytes) {
    buf = rank.alloc('two-level partial', bytes);
    kept.set(rank, buf);
  }
  return range(buf);
}
