// Linear barrier of Open MPI's basic component (coll_basic_barrier.c, mca_coll_basic_barrier_intra_lin):
// fan-in, every other rank sends an empty message to rank 0, which waits for all of them (receives
// from any source, so posted at once); fan-out, rank 0 sends an empty message to every rank, which
// leaves on receiving it.
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import { range } from '../../../sim/node/buffer.ts';
import { defineAlgorithm } from '../../algorithm.ts';
import type { BarrierArgs } from '../args.ts';
import { TAG } from '../tags.ts';

export function* basicBarrier(rank: Rank, _args: BarrierArgs): Program<void> {
  const empty = range(rank.alloc('barrier', 0));
  if (rank.id > 0) {
    yield* rank.p2p.send(0, empty, TAG.barrier);
    yield* rank.p2p.recv(0, empty, TAG.barrier);
    return;
  }
  const arrivals: Array<() => Program<void>> = [];
  for (let i = 1; i < rank.size; i++) arrivals.push(yield* rank.p2p.irecv(i, empty, TAG.barrier));
  for (const done of arrivals) yield* done();
  const releases: Array<() => Program<void>> = [];
  for (let i = 1; i < rank.size; i++) releases.push(yield* rank.p2p.isend(i, empty, TAG.barrier));
  for (const done of releases) yield* done();
}

export const barrierBasic = defineAlgorithm({
  name: 'barrier:basic',
  operation: 'barrier',
  description: 'linear (Open MPI basic): every rank reports to rank 0, which then releases every rank',
  params: [],
  program: basicBarrier,
});
