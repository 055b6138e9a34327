// Bruck allgather (ompi_coll_base_allgather_intra_bruck; Bruck et al. 1997, Thakur et al. 2005 §4.1).
// Each rank starts with its own block at the top of the receive buffer; at step k (distance 2^k) it
// sends everything it holds (at most N - distance blocks) to rank - distance and appends what rank +
// distance sends. After ceil(log2 N) steps block i holds rank me+i's data, and a local rotation puts
// every block at its rank's place.
import { subRange } from '../../../sim/node/buffer.ts';
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import { collBase } from './coll-base.ts';
import type { AllgatherArgs } from '../args.ts';
import { TAG } from '../tags.ts';
import { scratch } from './common.ts';

export function* bruckAllgather(rank: Rank, { send, recv, bytes }: AllgatherArgs): Program<void> {
  const size = rank.size;
  const me = rank.id;
  yield* rank.copy(send, subRange(recv, 0, bytes));
  for (let distance = 1; distance < size; distance <<= 1) {
    const recvFrom = (me + distance) % size;
    const sendTo = (me - distance + size) % size;
    const count = distance <= size / 2 ? distance : size - distance;
    yield* rank.p2p.sendrecv(
      sendTo,
      subRange(recv, 0, count * bytes),
      recvFrom,
      subRange(recv, distance * bytes, count * bytes),
      TAG.allgather,
    );
  }
  // Block i holds rank (me + i)'s data: rotate down by `me` blocks, through a temporary buffer.
  if (me !== 0 && bytes > 0) {
    const tail = size - me;
    const shift = scratch(rank, 'bruck-shift', tail * bytes);
    yield* rank.copy(subRange(recv, 0, tail * bytes), shift);
    yield* rank.copy(subRange(recv, tail * bytes, me * bytes), subRange(recv, 0, me * bytes));
    yield* rank.copy(shift, subRange(recv, me * bytes, tail * bytes));
  }
}

export const allgatherBruck = collBase(
  'allgather',
  'bruck',
  'ceil(log2 N) steps at distance 1, 2, 4..., then a local rotation (Open MPI coll_base, Bruck et al. 1997)',
  bruckAllgather,
);
