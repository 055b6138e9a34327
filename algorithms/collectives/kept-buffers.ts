// Buffers an MPI library allocates for its collectives and keeps from call to call (coll_base's
// scratch space, coll/sm's segment, a leader's partial result): malloc hands back the same warm
// memory call after call, so repeated calls reuse the same, possibly cached, buffer. They are kept
// per rank object (a sub-communicator's rank is a new one each call) for the run.
import { lazily, RunState } from '../../sim/node/run-state.ts';
import type { Buffer, Rank } from '../../sim/node/rank-api.ts';

const KEPT = new RunState('kept buffers', () => new Map<Rank, Map<string, Buffer>>());

/** The rank's buffer `name` of `bytes` bytes, allocated on first use (same name and size: same buffer). */
export function keptBuffer(rank: Rank, name: string, bytes: number): Buffer {
  const mine = lazily(rank.runState(KEPT), rank, () => new Map<string, Buffer>());
  return lazily(mine, `${name}#${bytes}`, () => rank.alloc(name, bytes));
}
