// Linear alltoallv of Open MPI's basic component (ompi_coll_base_alltoallv_intra_basic_linear): as
// the linear alltoall, with per-peer counts and displacements; empty blocks are not posted.
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import { range } from '../../../sim/node/buffer.ts';
import { defineAlgorithm } from '../../algorithm.ts';
import type { AlltoallvArgs } from '../args.ts';
import { TAG } from '../tags.ts';

export function* basicAlltoallv(rank: Rank, a: AlltoallvArgs): Program<void> {
  const me = rank.id;
  const n = rank.size;
  const sendBlock = (i: number) => range(a.send.buf, a.send.offset + a.sendDispls[i], a.sendCounts[i]);
  const recvBlock = (i: number) => range(a.recv.buf, a.recv.offset + a.recvDispls[i], a.recvCounts[i]);
  if (a.sendCounts[me] > 0) yield* rank.copy(sendBlock(me), recvBlock(me), 'alltoallv local block');
  const pending: Array<() => Program<void>> = [];
  for (let i = (me + 1) % n; i !== me; i = (i + 1) % n) {
    if (a.recvCounts[i] > 0) pending.push(yield* rank.p2p.irecv(i, recvBlock(i), TAG.alltoallv));
  }
  for (let i = (me + n - 1) % n; i !== me; i = (i + n - 1) % n) {
    if (a.sendCounts[i] > 0) pending.push(yield* rank.p2p.isend(i, sendBlock(i), TAG.alltoallv));
  }
  for (const done of pending) yield* done();
}

export const alltoallvBasic = defineAlgorithm({
  name: 'alltoallv:basic',
  operation: 'alltoallv',
  description: 'linear (Open MPI basic): every rank posts all its non-empty receives and sends at once, then waits',
  params: [],
  test: { maxRanks: 24, maxBytes: 2048, numRuns: 12 },
  program: basicAlltoallv,
});
