// CMA alltoall and alltoallv (Ma et al. 2010, seed 000, §IV.C and Figure 2, with CMA in place of
// KNEM): every rank learns the address of every peer's send buffer (alltoall: one allgather of the
// addresses, as the cookies are there), copies its own block, then reads its block from every peer
// with process_vm_readv, starting at r+1, r+2, ... so that the readers of any one process at a time
// stay few; Hashmi et al. (seed 001) find this all-to-all pattern scales with CMA, unlike one-to-all.
// A barrier keeps every send buffer in place until all its readers are done.
//
// alltoallv: a reader knows how many bytes each peer sends it but not where that block sits in the
// peer's send buffer (displacements are local to their owner in MPI), so each rank tells each peer
// the exact range of its block, one control message per peer.
import { subRange } from '../../../sim/node/buffer.ts';
import type { Program, Range, Rank } from '../../../sim/node/rank-api.ts';
import type { AlltoallArgs, AlltoallvArgs } from '../args.ts';
import { defineAlgorithm } from '../../algorithm.ts';
import { readFrom } from './iov.ts';

/** Reads block `remoteOf(peer)` of every peer into `localOf(peer)`, round-robin from r+1; own block copied first. */
function* readAll(
  rank: Rank,
  own: () => Program<void>,
  localOf: (peer: number) => Range,
  remoteOf: (peer: number) => Range,
): Program<void> {
  yield* own();
  for (let k = 1; k < rank.size; k++) {
    const peer = (rank.id + k) % rank.size;
    yield* readFrom(rank, peer, localOf(peer), remoteOf(peer));
  }
  yield* rank.control.barrier(); // every peer has read from this rank's send buffer
}

export function* cmaLinearAlltoall(rank: Rank, { send, recv, bytes }: AlltoallArgs): Program<void> {
  if (bytes === 0) return;
  const me = rank.id;
  const own = () =>
    rank.copy(subRange(send, me * bytes, bytes), subRange(recv, me * bytes, bytes), 'alltoall: own block');
  if (rank.size === 1) return yield* own();
  const sendOf = yield* rank.control.allgather<Range>(send);
  yield* readAll(
    rank,
    own,
    (peer) => subRange(recv, peer * bytes, bytes),
    (peer) => subRange(sendOf[peer], me * bytes, bytes),
  );
}

export function* cmaLinearAlltoallv(rank: Rank, a: AlltoallvArgs): Program<void> {
  const me = rank.id;
  const n = rank.size;
  const own = function* (): Program<void> {
    if (a.sendCounts[me] > 0)
      yield* rank.copy(
        subRange(a.send, a.sendDispls[me], a.sendCounts[me]),
        subRange(a.recv, a.recvDispls[me], a.recvCounts[me]),
        'alltoallv: own block',
      );
  };
  if (n === 1) return yield* own();
  // Tell every peer where its block lies in this rank's send buffer, in the round-robin order.
  for (let k = 1; k < n; k++) {
    const peer = (me + k) % n;
    yield* rank.control.send(peer, subRange(a.send, a.sendDispls[peer], a.sendCounts[peer]));
  }
  const blockFrom: Range[] = [];
  for (let k = 1; k < n; k++) {
    const peer = (me - k + n) % n;
    blockFrom[peer] = (yield* rank.control.recv(peer)) as Range;
  }
  yield* readAll(
    rank,
    own,
    (peer) => subRange(a.recv, a.recvDispls[peer], a.recvCounts[peer]),
    (peer) => blockFrom[peer],
  );
}

export const alltoallCmaLinear = defineAlgorithm({
  name: 'alltoall:cma-linear',
  operation: 'alltoall',
  description:
    'send-buffer addresses allgathered; own block first, then process_vm_readv from r+1, r+2, ... (Ma et al. 2010 §IV.C over CMA)',
  params: [],
  program: cmaLinearAlltoall,
});

export const alltoallvCmaLinear = defineAlgorithm({
  name: 'alltoallv:cma-linear',
  operation: 'alltoallv',
  description:
    'as alltoall:cma-linear, each rank telling each peer where its block lies (Ma et al. 2010 §IV.C over CMA)',
  params: [],
  program: cmaLinearAlltoallv,
});
