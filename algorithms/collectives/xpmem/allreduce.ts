// XPMEM allreduce (Hashmi et al., seed 001, "Shared Address-space based MPI_Allreduce"), inside
// one node:
// (0) every process exposes its send and receive buffers and exchanges the segment information;
// (1) parallel partitioned reduce: rank i reduces partition i of every peer's send buffer, read
//     directly through XPMEM, into partition i of its own receive buffer (no intermediate copy);
// (3) parallel partitioned broadcast: rank i copies its finished partition into partition i of
//     every peer's receive buffer; then a barrier, so no rank leaves before every partition has
//     arrived and every peer is done reading its send buffer.
// Step (2), the inter-node allreduce among the partition leaders, has no counterpart in one node.
// Peers are visited from i+1 on, so the N readers of step 1 spread over the N processes.
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import type { AllreduceArgs } from '../args.ts';
import { defineAlgorithm } from '../../algorithm.ts';
import { expose, withAttached, type Exposed } from './expose.ts';
import { partition, slice } from './partition.ts';

interface Buffers {
  send: Exposed;
  recv: Exposed;
}

export function* xpmemAllreduce(rank: Rank, { send, recv, bytes, op }: AllreduceArgs): Program<void> {
  const n = rank.size;
  const me = rank.id;
  if (bytes === 0) return;
  if (n === 1) return yield* rank.copy(send, recv, 'allreduce: own data');
  const mine: Buffers = { send: yield* expose(rank, send), recv: yield* expose(rank, recv) };
  const peers = yield* rank.control.allgather(mine);
  const p = partition(bytes, n, me);
  const result = slice(recv, p);
  if (p.bytes > 0) {
    yield* rank.copy(slice(send, p), result, 'allreduce: own partition');
    for (let k = 1; k < n; k++) {
      const peer = (me + k) % n;
      yield* withAttached(rank, peer, peers[peer].send, p.offset, p.bytes, (theirs) => rank.reduce(op, theirs, result));
    }
    for (let k = 1; k < n; k++) {
      const peer = (me + k) % n;
      yield* withAttached(rank, peer, peers[peer].recv, p.offset, p.bytes, (theirs) =>
        rank.copy(result, theirs, 'allreduce: partition out'),
      );
    }
  }
  yield* rank.control.barrier();
}

export const allreduceXpmem = defineAlgorithm({
  name: 'allreduce:xpmem',
  operation: 'allreduce',
  description:
    "zero-copy partitioned allreduce: rank i reduces partition i of every peer's send buffer through XPMEM, then copies it into every peer's receive buffer (Hashmi et al., seed 001)",
  params: [],
  program: xpmemAllreduce,
});
