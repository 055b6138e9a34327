// XPMEM reduce (Hashmi et al., seed 001): the allreduce without its final broadcast, the result
// delivered to the root. Only the root has a receive buffer, so rank i reduces partition i of every
// peer's send buffer straight into partition i of the root's receive buffer, attached through
// XPMEM: the partitions reach the root with no extra copy and no extra message, whatever the root.
// A barrier keeps every send buffer in place until all its readers are done and tells the root
// its buffer is complete.
import type { Program, Range, Rank } from '../../../sim/node/rank-api.ts';
import type { ReduceArgs } from '../args.ts';
import { defineAlgorithm } from '../../algorithm.ts';
import { attach, expose, withAttached, type Exposed } from './expose.ts';
import { partition, slice } from './partition.ts';

interface Buffers {
  send: Exposed;
  /** The root's receive buffer (the root's entry only). */
  recv?: Exposed;
}

export function* xpmemReduce(rank: Rank, { send, recv, bytes, op, root }: ReduceArgs): Program<void> {
  const n = rank.size;
  const me = rank.id;
  if (bytes === 0) return;
  if (me === root && !recv) throw new Error(`reduce: root ${root} has no receive buffer`);
  if (n === 1) return yield* rank.copy(send, recv!, 'reduce: own data');
  const mine: Buffers = { send: yield* expose(rank, send), recv: me === root ? yield* expose(rank, recv!) : undefined };
  const peers = yield* rank.control.allgather(mine);
  const p = partition(bytes, n, me);
  if (p.bytes > 0) {
    const result: Range =
      me === root ? slice(recv!, p) : yield* attach(rank, root, peers[root].recv!, p.offset, p.bytes);
    yield* rank.copy(slice(send, p), result, 'reduce: own partition');
    for (let k = 1; k < n; k++) {
      const peer = (me + k) % n;
      yield* withAttached(rank, peer, peers[peer].send, p.offset, p.bytes, (theirs) => rank.reduce(op, theirs, result));
    }
    if (me !== root) yield* rank.xpmem.detach(result);
  }
  yield* rank.control.barrier();
}

export const reduceXpmem = defineAlgorithm({
  name: 'reduce:xpmem',
  operation: 'reduce',
  description:
    "zero-copy partitioned reduce: rank i reduces partition i of every peer's send buffer through XPMEM straight into the root's receive buffer (Hashmi et al., seed 001)",
  params: [],
  program: xpmemReduce,
});
