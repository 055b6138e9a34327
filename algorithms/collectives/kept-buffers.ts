// Buffers an MPI library allocates for its collectives and keeps from call to call (coll_base's
// scratch space, coll/sm's segment, a leader's partial result): malloc hands back the same warm
// memory call after call, so repeated calls reuse the same, possibly cached, buffer.
import type { Buffer, Rank } from '../../sim/node/rank-api.ts';

const kept = new WeakMap<Rank, Map<string, Buffer>>();

/** The rank's buffer `name` of `bytes` bytes, allocated on first use (same name and size: same buffer). */
export function keptBuffer(rank: Rank, name: string, bytes: number): Buffer {
  let mine = kept.get(rank);
  if (!mine) {
    mine = new Map();
    kept.set(rank, mine);
  }
  const key = `${name}#${bytes}`;
  let buf = mine.get(key);
  if (!buf) {
    buf = rank.alloc(name, bytes);
    mine.set(key, buf);
  }
  return buf;
}
