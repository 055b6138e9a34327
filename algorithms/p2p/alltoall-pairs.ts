// All-to-all by pairwise exchange: in step k = 1..N-1 rank r sends its block for one peer and
// receives that peer's block for it. With N a power of two the peers are r XOR k (each step pairs
// the ranks up); otherwise r sends to (r+k) mod N and receives from (r-k) mod N. Every message of
// a step is in flight together, so the transports' contention on memory and locks shows.
import type { OperationInfo } from '../operations.ts';
import { range } from '../../sim/node/buffer.ts';
import type { Program, Range, Rank } from '../../sim/node/rank-api.ts';
import type { AlltoallArgs } from '../collectives/args.ts';
import { equalBlockAlltoall } from '../collectives/semantics/alltoall.ts';
import { overTransports } from './over-transports.ts';
import type { Transport } from './transport.ts';

/** N blocks of `bytes` in `send` (block j goes to rank j) and in `recv` (block j comes from rank j). */
export type AlltoallPairsArgs = AlltoallArgs;

export const alltoallpairsOperation: OperationInfo = {
  name: 'alltoallpairs',
  description: 'all-to-all by pairwise exchange in N-1 steps',
  rooted: false,
};

export const alltoallpairsSemantics = equalBlockAlltoall('alltoallpairs');

/** The peers of rank `me` at step `k` (1 <= k < n): whom it sends to and receives from. */
export function pairwisePeers(me: number, k: number, n: number): { to: number; from: number } {
  if ((n & (n - 1)) === 0) return { to: me ^ k, from: me ^ k };
  return { to: (me + k) % n, from: (me - k + n) % n };
}

export function* alltoallPairs(t: Transport, rank: Rank, { send, recv, bytes }: AlltoallPairsArgs): Program<void> {
  const me = rank.id;
  const n = rank.size;
  const block = (r: Range, i: number) => range(r.buf, r.offset + i * bytes, bytes);
  yield* rank.copy(block(send, me), block(recv, me), 'alltoall own block');
  for (let k = 1; k < n; k++) {
    const { to, from } = pairwisePeers(me, k, n);
    const sent = yield* t.isend(rank, to, block(send, to));
    yield* t.recv(rank, from, block(recv, from));
    yield* sent();
  }
}

export const alltoallpairsAlgorithms = overTransports('alltoallpairs', 'pairwise all-to-all', alltoallPairs);
