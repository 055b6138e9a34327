// The segmented tree reduction every tree-shaped tuned reduce runs
// (ompi_coll_base_reduce_intra_generic, coll_base_reduce.c; coll_tuned_reduce.c in 1.3-1.6), for
// the commutative operations every ReduceOp is. A node steps over (segment, child), one receive
// always posted ahead of the reduction: the first child's segment lands straight in the
// accumulator, the node's own data is reduced into it when the second child's is posted, each later
// child's from one of two incoming buffers; the last child's segment is reduced when the next
// segment's first receive is posted, and only then is the segment sent to the parent. With one
// child the node's own data is reduced at that point instead. A leaf sends its segments with
// blocking sends. The root accumulates straight into its receive buffer.
import { subRange } from '../../../sim/node/buffer.ts';
import type { Program, Range, Rank, ReduceOp } from '../../../sim/node/rank-api.ts';
import { TAG } from '../tags.ts';
import { scratch, segments } from './common.ts';
import type { Tree } from './trees.ts';

export interface ReduceCall {
  send: Range;
  /** The root's receive buffer; undefined elsewhere. */
  recv?: Range;
  op: ReduceOp;
}

export function* reduceOnTree(rank: Rank, { send, recv, op }: ReduceCall, tree: Tree, segsize: number): Program<void> {
  const bytes = send.bytes;
  const segs = segments(bytes, segsize);
  if (tree.children.length === 0) {
    // Leaf (or a communicator of one, where the root just copies).
    if (tree.parent < 0) {
      if (recv) yield* rank.copy(send, recv);
      return;
    }
    for (const [at, n] of segs) yield* rank.p2p.send(tree.parent, subRange(send, at, n), TAG.reduce);
    return;
  }
  const accum = tree.parent < 0 ? recv! : scratch(rank, 'reduce-accum', bytes);
  const segBytes = segs[0][1];
  const inbuf = [scratch(rank, 'reduce-in0', segBytes), scratch(rank, 'reduce-in1', segBytes)];
  const children = tree.children;
  const reqs: ((() => Program<void>) | undefined)[] = [undefined, undefined];
  const acc = (s: number) => subRange(accum, segs[s][0], segs[s][1]);
  const mine = (s: number) => subRange(send, segs[s][0], segs[s][1]);
  const incoming = (b: number, s: number) => subRange(inbuf[b], 0, segs[s][1]);
  let inbi = 0;
  // One step past the last segment, to reduce and send it.
  for (let s = 0; s <= segs.length; s++) {
    for (let i = 0; i < children.length; i++) {
      if (s < segs.length) {
        const into = i === 0 ? acc(s) : incoming(inbi, s);
        reqs[inbi] = yield* rank.p2p.irecv(children[i], into, TAG.reduce);
      }
      // The previous step's receive: child i-1 of this segment, or the last child of the previous.
      const previous = reqs[inbi ^ 1];
      reqs[inbi ^ 1] = undefined;
      if (previous) yield* previous();
      if (i > 0) {
        yield* rank.reduce(op, i === 1 ? mine(s) : incoming(inbi ^ 1, s), acc(s));
      } else if (s > 0) {
        yield* rank.reduce(op, children.length <= 1 ? mine(s - 1) : incoming(inbi ^ 1, s - 1), acc(s - 1));
        if (tree.parent >= 0) yield* rank.p2p.send(tree.parent, acc(s - 1), TAG.reduce);
        if (s === segs.length) break;
      }
      inbi ^= 1;
    }
  }
}
