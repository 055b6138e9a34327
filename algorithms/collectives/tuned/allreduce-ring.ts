// Ring allreduce (ompi_coll_base_allreduce_intra_ring, coll_base_allreduce.c): the vector is cut
// into N blocks (the first N mod count blocks one element longer). Reduce-scatter: for N-1 steps
// each rank receives a block from its left neighbour, adds its own contribution and passes it right,
// receiving the next block while it reduces. (With fewer elements than ranks it runs recursive
// doubling instead, as Open MPI does.) Rank r ends owning the full sum of block r+1. Allgather:
// N-1 more steps pass the finished blocks around the ring.
import { subRange } from '../../../sim/node/buffer.ts';
import type { Program, Range, Rank } from '../../../sim/node/rank-api.ts';
import { collBase } from './coll-base.ts';
import type { AllreduceArgs } from '../args.ts';
import { recursiveDoublingAllreduce } from './allreduce-recursive-doubling.ts';
import { TAG } from '../tags.ts';
import { scratch } from './common.ts';

/** Block k of a `bytes`-long vector cut into `n` blocks, Open MPI's early/late split. */
export function ringBlock(bytes: number, n: number, k: number): [offset: number, length: number] {
  const early = Math.ceil(bytes / n);
  const late = Math.floor(bytes / n);
  const split = bytes % n;
  return k < split ? [k * early, early] : [split * early + (k - split) * late, late];
}

export function* ringAllreduce(rank: Rank, args: AllreduceArgs): Program<void> {
  const size = rank.size;
  const me = rank.id;
  const { send } = args;
  // Fewer elements than ranks: Open MPI hands over to recursive doubling.
  if (send.bytes < size) {
    yield* recursiveDoublingAllreduce(rank, args);
    return;
  }
  const { recv, op } = args;
  yield* rank.copy(send, recv);
  if (size === 1) return;
  const bytes = send.bytes;
  const block = (k: number): Range => {
    const [at, n] = ringBlock(bytes, size, ((k % size) + size) % size);
    return subRange(recv, at, n);
  };
  const early = Math.ceil(bytes / size);
  const inbuf = [scratch(rank, 'ring-in0', early), scratch(rank, 'ring-in1', early)];
  const into = (i: number, b: Range) => subRange(inbuf[i], 0, b.bytes);
  const sendTo = (me + 1) % size;
  const recvFrom = (me + size - 1) % size;

  // Reduce-scatter: step k brings block me-k from the left.
  let inbi = 0;
  let pending = yield* rank.p2p.irecv(recvFrom, into(inbi, block(me - 1)), TAG.allreduce);
  yield* rank.p2p.send(sendTo, block(me), TAG.allreduce);
  for (let k = 2; k < size; k++) {
    const prevblock = block(me - k + 1);
    inbi ^= 1;
    const next = yield* rank.p2p.irecv(recvFrom, into(inbi, block(me - k)), TAG.allreduce);
    yield* pending();
    yield* rank.reduce(op, into(inbi ^ 1, prevblock), prevblock);
    yield* rank.p2p.send(sendTo, prevblock, TAG.allreduce);
    pending = next;
  }
  yield* pending();
  const finished = block(me + 1);
  yield* rank.reduce(op, into(inbi, finished), finished);

  // Allgather of the finished blocks around the ring.
  for (let k = 0; k < size - 1; k++) {
    yield* rank.p2p.sendrecv(sendTo, block(me + 1 - k), recvFrom, block(me - k), TAG.allreduce);
  }
}

export const allreduceRing = collBase(
  'allreduce',
  'ring',
  'ring reduce-scatter then ring allgather of N blocks (Open MPI coll_base ring)',
  ringAllreduce,
  { test: { maxRanks: 40 } },
);
