// Binomial scatter (ompi_coll_base_scatter_intra_binomial, coll_base_scatter.c) on the in-order
// binomial tree: every node receives the blocks of its whole subtree (contiguous in shifted-rank
// order) from its parent, copies its own out, then forwards each child its subtree's share, largest
// first as 4.0 onwards do (1.3-3.x sent the smallest first).
// A root other than 0 first rotates its send buffer into shifted-rank order. Leaves are told by
// parity, not by children: every even shifted rank receives into a temporary buffer and copies its
// block out, the last one of an odd-sized tree too, which has no children (1.5.1's
// coll_tuned_scatter.c and 4.1's coll_base_scatter.c alike).
import { subRange } from '../../../sim/node/buffer.ts';
import type { Program, Range, Rank } from '../../../sim/node/rank-api.ts';
import { collBase } from './coll-base.ts';
import type { ScatterArgs } from '../args.ts';
import { TAG } from '../tags.ts';
import { scratch } from './common.ts';
import { inOrderBinomialTree, inOrderSubtreeSize } from './trees.ts';

export function* binomialScatter(rank: Rank, { send, recv, bytes, root }: ScatterArgs): Program<void> {
  const size = rank.size;
  const me = rank.id;
  const v = (me - root + size) % size;
  const tree = inOrderBinomialTree(me, root, size);
  const span = inOrderSubtreeSize(v, size);
  let held: Range;
  if (me === root) {
    if (root === 0) {
      held = send!;
    } else {
      held = scratch(rank, 'scatter-tmp', size * bytes);
      // Shifted order: block v of `held` is rank (v + root)'s block.
      yield* rank.copy(subRange(send!, root * bytes, (size - root) * bytes), subRange(held, 0, (size - root) * bytes));
      yield* rank.copy(subRange(send!, 0, root * bytes), subRange(held, (size - root) * bytes, root * bytes));
    }
  } else if (v % 2 === 0) {
    held = scratch(rank, 'scatter-tmp', span * bytes);
    yield* rank.p2p.recv(tree.parent, held, TAG.scatter);
  } else {
    yield* rank.p2p.recv(tree.parent, recv, TAG.scatter);
    return;
  }
  yield* rank.copy(subRange(held, 0, bytes), recv);
  for (let i = tree.children.length - 1; i >= 0; i--) {
    const cv = (tree.children[i] - root + size) % size;
    yield* rank.p2p.send(
      tree.children[i],
      subRange(held, (cv - v) * bytes, inOrderSubtreeSize(cv, size) * bytes),
      TAG.scatter,
    );
  }
}

export const scatterBinomial = collBase(
  'scatter',
  'binomial',
  "in-order binomial tree, each node forwarding its subtree's blocks (Open MPI coll_base binomial)",
  binomialScatter,
);
