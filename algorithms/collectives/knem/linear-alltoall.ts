// Linear KNEM alltoall and alltoallv (Ma et al. 2010, seed 000, §IV.C and Figure 2): every rank
// declares its send buffer to KNEM, the cookies are exchanged by an allgather into a pre-allocated
// array of N 64-bit cookies (the 8N bytes of Table I), and every rank pulls its block from every
// peer (receiver-reading). To keep all ranks from hammering the same source at once, each starts
// with its local copy and then reads round-robin by rank: rank r reads from r+1, r+2, ...
// A rank destroys its region only after every peer has read from it (a barrier).
//
// alltoallv: a reader knows how many bytes each peer sends it but not where that block sits in the
// peer's send buffer (displacements are local to their owner in MPI), so each rank also tells each
// peer the offset of its block, one control message per peer, into a second array of N offsets.
import { subRange } from '../../../sim/node/buffer.ts';
import type { KnemCookie, Program, Range, Rank } from '../../../sim/node/rank-api.ts';
import type { AlltoallArgs, AlltoallvArgs } from '../args.ts';
import { defineAlgorithm } from '../../algorithm.ts';
import { pull } from './copy.ts';

/** Bytes of one entry of the cookie (and offset) arrays: a 64-bit integer, KNEM's cookie type
 *  (knem_io.h, `knem_cookie_t`, a u64 as knem_main.c builds it). */
const ENTRY_BYTES = 8;

interface Blocks {
  /** Where block `peer` of this rank's send buffer starts, and how long it is. */
  sendOffset(peer: number): number;
  sendCount(peer: number): number;
  /** Where the block from `peer` lands in this rank's receive buffer. */
  recvBlock(peer: number): Range;
}

function* linearAlltoall(
  rank: Rank,
  send: Range,
  blocks: Blocks,
  offsetOfMine: (peer: number) => number,
): Program<void> {
  const me = rank.id;
  const n = rank.size;
  const ownBlock = () =>
    rank.copy(subRange(send, blocks.sendOffset(me), blocks.sendCount(me)), blocks.recvBlock(me), 'alltoall: own block');
  if (n === 1) {
    if (blocks.sendCount(me) > 0) yield* ownBlock();
    return;
  }
  // The integer array of §IV.C; the cookies themselves travel as control values.
  rank.alloc('knem cookies', ENTRY_BYTES * n);
  const cookie = yield* rank.knem.createRegion(send, { read: true });
  const cookieOf = yield* rank.control.allgather<KnemCookie>(cookie);
  if (blocks.sendCount(me) > 0) yield* ownBlock();
  for (let k = 1; k < n; k++) {
    const peer = (me + k) % n;
    yield* pull(rank, cookieOf[peer], offsetOfMine(peer), blocks.recvBlock(peer));
  }
  yield* rank.control.barrier(); // every peer has read from this rank's region
  yield* rank.knem.destroyRegion(cookie);
}

export function* knemLinearAlltoall(rank: Rank, { send, recv, bytes }: AlltoallArgs): Program<void> {
  if (bytes === 0) return;
  const me = rank.id;
  const blocks: Blocks = {
    sendOffset: (peer) => peer * bytes,
    sendCount: () => bytes,
    recvBlock: (peer) => subRange(recv, peer * bytes, bytes),
  };
  // Block `me` of every peer's send buffer sits at the same offset: nothing to exchange.
  yield* linearAlltoall(rank, send, blocks, () => me * bytes);
}

export function* knemLinearAlltoallv(rank: Rank, a: AlltoallvArgs): Program<void> {
  const me = rank.id;
  const n = rank.size;
  const blocks: Blocks = {
    sendOffset: (peer) => a.sendDispls[peer],
    sendCount: (peer) => a.sendCounts[peer],
    recvBlock: (peer) => subRange(a.recv, a.recvDispls[peer], a.recvCounts[peer]),
  };
  const offsetOfMine: number[] = [];
  if (n > 1) {
    rank.alloc('knem offsets', ENTRY_BYTES * n);
    // Tell every peer where its block lies in this rank's send buffer, in the round-robin order.
    for (let k = 1; k < n; k++) yield* rank.control.send((me + k) % n, a.sendDispls[(me + k) % n]);
    for (let k = 1; k < n; k++) {
      const peer = (me - k + n) % n;
      offsetOfMine[peer] = (yield* rank.control.recv(peer)) as number;
    }
  }
  yield* linearAlltoall(rank, a.send, blocks, (peer) => offsetOfMine[peer]);
}

export const alltoallKnemLinear = defineAlgorithm({
  name: 'alltoall:knem-linear',
  operation: 'alltoall',
  description:
    'every rank declares its send buffer, cookies allgathered (8N bytes); local copy first, then pulls round-robin from r+1, r+2, ... (Ma et al. 2010, §IV.C)',
  params: [],
  program: knemLinearAlltoall,
});

export const alltoallvKnemLinear = defineAlgorithm({
  name: 'alltoallv:knem-linear',
  operation: 'alltoallv',
  description: 'as alltoall:knem-linear, each rank also telling each peer where its block lies (Ma et al. 2010, §IV.C)',
  params: [],
  program: knemLinearAlltoallv,
});
