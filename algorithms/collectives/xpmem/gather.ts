// XPMEM gather and gatherv: the root exposes its receive buffer and sends the segment out of band;
// every other rank attaches its own block of it and writes its data there with plain stores
// (sender-writing, in parallel on the senders' cores); the root copies its own block and returns
// once every writer is done. Ranks with nothing to send take no part.
import type { Program, Range, Rank } from '../../../sim/node/rank-api.ts';
import type { GatherArgs, GathervArgs } from '../args.ts';
import { defineAlgorithm } from '../../algorithm.ts';
import { expose, withAttached, type Exposed } from './expose.ts';
import { slice } from './partition.ts';

/** Rank r's `send` (counts[r] bytes) lands at `displs[r]` of the root's `recv`. */
export function* xpmemGatherOf(
  rank: Rank,
  root: number,
  send: Range,
  recv: Range | undefined,
  counts: number[],
  displs: number[],
): Program<void> {
  const me = rank.id;
  if (me === root) {
    if (!recv) throw new Error(`gather: root ${root} has no receive buffer`);
    if (counts[root] > 0)
      yield* rank.copy(send, slice(recv, { offset: displs[root], bytes: counts[root] }), 'gather: own block');
    const writers = counts.flatMap((c, r) => (r !== root && c > 0 ? [r] : []));
    if (writers.length === 0) return;
    const mine = yield* expose(rank, recv);
    for (const r of writers) yield* rank.control.send(r, mine);
    for (const r of writers) yield* rank.control.recv(r); // done writing
  } else if (counts[me] > 0) {
    const theirs = (yield* rank.control.recv(root)) as Exposed;
    yield* withAttached(rank, root, theirs, displs[me], counts[me], (view) =>
      rank.copy(send, view, 'gather: xpmem write'),
    );
    yield* rank.control.send(root, 'done');
  }
}

export function* xpmemGather(rank: Rank, { send, recv, bytes, root }: GatherArgs): Program<void> {
  const counts = Array.from({ length: rank.size }, () => bytes);
  yield* xpmemGatherOf(
    rank,
    root,
    send,
    recv,
    counts,
    counts.map((_, r) => r * bytes),
  );
}

export function* xpmemGatherv(rank: Rank, { send, recv, counts, displs, root }: GathervArgs): Program<void> {
  yield* xpmemGatherOf(rank, root, send, recv, counts, displs);
}

export const gatherXpmem = defineAlgorithm({
  name: 'gather:xpmem',
  operation: 'gather',
  description:
    'root exposes its receive buffer; every rank attaches its block through XPMEM and writes it, all at once',
  params: [],
  program: xpmemGather,
});

export const gathervXpmem = defineAlgorithm({
  name: 'gatherv:xpmem',
  operation: 'gatherv',
  description:
    'root exposes its receive buffer; every rank attaches its block at its displacement through XPMEM and writes it, all at once',
  params: [],
  program: xpmemGatherv,
});
