// Bruck alltoall (ompi_coll_base_alltoall_intra_bruck; Bruck et al. 1997, Thakur et al. 2005 §4.5).
// Rotate the send blocks so block i is meant for rank me+i; at step k (distance 2^k) pack every
// block whose index has bit k set, send the pack to rank + distance, and unpack what rank - distance
// sends into the same slots. After ceil(log2 N) steps slot i holds rank me-i's block for me; an
// inverse rotation puts it at block me-i of the receive buffer.
import { subRange } from '../../../sim/node/buffer.ts';
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import { collBase } from './coll-base.ts';
import type { AlltoallArgs } from '../args.ts';
import { TAG } from '../tags.ts';
import { scratch } from './common.ts';

export function* bruckAlltoall(rank: Rank, { send, recv, bytes }: AlltoallArgs): Program<void> {
  const size = rank.size;
  const me = rank.id;
  const work = scratch(rank, 'bruck-work', size * bytes);
  // Step 1: local rotation.
  for (let i = 0; i < size; i++)
    yield* rank.copy(subRange(send, ((me + i) % size) * bytes, bytes), subRange(work, i * bytes, bytes));
  // Step 2: log2 N exchanges of the blocks whose index has the distance bit set.
  const packed = scratch(rank, 'bruck-pack', size * bytes);
  const unpacked = scratch(rank, 'bruck-unpack', size * bytes);
  for (let distance = 1; distance < size; distance <<= 1) {
    const sendTo = (me + distance) % size;
    const recvFrom = (me - distance + size) % size;
    const chosen = [];
    for (let i = 0; i < size; i++) if (i & distance) chosen.push(i);
    for (let k = 0; k < chosen.length; k++)
      yield* rank.copy(subRange(work, chosen[k] * bytes, bytes), subRange(packed, k * bytes, bytes));
    const n = chosen.length * bytes;
    yield* rank.p2p.sendrecv(sendTo, subRange(packed, 0, n), recvFrom, subRange(unpacked, 0, n), TAG.alltoall);
    for (let k = 0; k < chosen.length; k++)
      yield* rank.copy(subRange(unpacked, k * bytes, bytes), subRange(work, chosen[k] * bytes, bytes));
  }
  // Step 3: inverse rotation.
  for (let i = 0; i < size; i++)
    yield* rank.copy(subRange(work, i * bytes, bytes), subRange(recv, ((me - i + size) % size) * bytes, bytes));
}

export const alltoallBruck = collBase(
  'alltoall',
  'bruck',
  'ceil(log2 N) packed exchanges at distance 1, 2, 4... between two rotations (Open MPI coll_base, Bruck et al. 1997)',
  bruckAlltoall,
  { test: { maxRanks: 24 } },
);
