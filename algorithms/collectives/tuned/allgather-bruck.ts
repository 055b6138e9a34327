// Bruck allgather (ompi_coll_base_allgather_intra_bruck; Bruck et al. 1997, Thakur et al. 2005 §4.1).
// Each rank starts with its own block at the top of the receive buffer; at step k (distance 2^k) it
// sends everything it holds (at most N - distance blocks) to rank - distance and appends what rank +
// distance sends. After ceil(log2 N) steps block i holds rank me+i's data, and a local rotation puts
// every block at its rank's place.
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import { defineAlgorithm } from '../../algorithm.ts';
import type { AllgatherArgs } from '../args.ts';
import { TAG } from '../tags.ts';
import { blocks, scratch } from './common.ts';

export function* bruckAllgather(rank: Rank, { send, recv, bytes }: AllgatherArgs): Program<void> {
  const size = rank.size;
  const me = rank.id;
  yield* rank.copy(send, blocks(recv, bytes, 0));
  for (let distance = 1; distance < size; distance <<= 1) {
    const recvFrom = (me + distance) % size;
    const sendTo = (me - distance + size) % size;
    const count = distance <= size / 2 ? distance : size - distance;
    yield* rank.p2p.sendrecv(sendTo, blocks(recv, bytes, 0, count), recvFrom, blocks(recv, bytes, distance, count), TAG.allgather);
  }
  // Block i holds rank (me + i)'s data: rotate down by `me` blocks, through a temporary buffer.
  if (me !== 0 && bytes > 0) {
    const tail = size - me;
    const shift = scratch(rank, 'bruck-shift', tail * bytes);
    yield* rank.copy(blocks(recv, bytes, 0, tail), shift);
    yield* rank.copy(blocks(recv, bytes, tail, me), blocks(recv, bytes, 0, me));
    yield* rank.copy(shift, blocks(recv, bytes, me, tail));
  }
}

export const allgatherBruck = defineAlgorithm({
  name: 'allgather:bruck',
  operation: 'allgather',
  description: 'ceil(log2 N) steps at distance 1, 2, 4..., then a local rotation (Open MPI coll_base, Bruck et al. 1997)',
  params: [],
  program: bruckAllgather,
});
