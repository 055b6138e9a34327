// The segmented tree reduction every tree-shaped tuned reduce runs
// (ompi_coll_base_reduce_intra_generic, ompi/mca/coll/base/coll_base_reduce.c). For each segment a
// node combines its own contribution with each child's, receiving the next child's segment into a
// second buffer while it reduces the current one, then sends the partial result to its parent; a
// leaf only sends its segments. The root accumulates straight into its receive buffer.
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
  // One receive always in flight ahead of the reduction, over (segment, child) in order.
  const steps = segs.flatMap(([at, n]) => tree.children.map((child) => ({ at, n, child })));
  const post = (k: number) => rank.p2p.irecv(steps[k].child, subRange(inbuf[k % 2], 0, steps[k].n), TAG.reduce);
  let pending = yield* post(0);
  for (let k = 0; k < steps.length; k++) {
    const { at, n, child } = steps[k];
    const next = k + 1 < steps.length ? yield* post(k + 1) : undefined;
    const acc = subRange(accum, at, n);
    if (child === tree.children[0]) yield* rank.copy(subRange(send, at, n), acc);
    yield* pending();
    yield* rank.reduce(op, subRange(inbuf[k % 2], 0, n), acc);
    if (child === tree.children[tree.children.length - 1] && tree.parent >= 0) {
      yield* rank.p2p.send(tree.parent, acc, TAG.reduce);
    }
    if (next) pending = next;
  }
}
