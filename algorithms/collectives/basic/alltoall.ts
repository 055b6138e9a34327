// Linear alltoall of Open MPI's basic component (ompi_coll_base_alltoall_intra_basic_linear): copy
// the own block locally, post every receive (from rank+1 upwards), then every send (from rank-1
// downwards), and wait for all of them.
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import { range } from '../../../sim/node/buffer.ts';
import { defineAlgorithm } from '../../algorithm.ts';
import type { AlltoallArgs } from '../args.ts';
import { TAG } from '../tags.ts';

export function* basicAlltoall(rank: Rank, { send, recv, bytes }: AlltoallArgs): Program<void> {
  const me = rank.id;
  const n = rank.size;
  const sendBlock = (i: number) => range(send.buf, send.offset + i * bytes, bytes);
  const recvBlock = (i: number) => range(recv.buf, recv.offset + i * bytes, bytes);
  yield* rank.copy(sendBlock(me), recvBlock(me), 'alltoall local block');
  const pending: Array<() => Program<void>> = [];
  for (let i = (me + 1) % n; i !== me; i = (i + 1) % n)
    pending.push(yield* rank.p2p.irecv(i, recvBlock(i), TAG.alltoall));
  for (let i = (me + n - 1) % n; i !== me; i = (i + n - 1) % n)
    pending.push(yield* rank.p2p.isend(i, sendBlock(i), TAG.alltoall));
  for (const done of pending) yield* done();
}

export const alltoallBasic = defineAlgorithm({
  name: 'alltoall:basic',
  operation: 'alltoall',
  description: 'linear (Open MPI basic): every rank posts all its receives and sends at once, then waits',
  params: [],
  test: { maxRanks: 24, maxBytes: 2048, numRuns: 12 },
  program: basicAlltoall,
});
