// Binomial gather (ompi_coll_base_gather_intra_binomial, coll_base_gather.c) on the in-order
// binomial tree: a node collects its own block and its children's subtrees contiguously in
// shifted-rank order and sends the lot to its parent; the root, if not rank 0, rotates the result
// into rank order. Open MPI tells leaves by parity, not by children: every even shifted rank copies
// its block into a temporary buffer and sends from there, the last one of an odd-sized tree too,
// which has no children (1.5.1's coll_tuned_gather.c and 4.1's coll_base_gather.c alike).
import { subRange } from '../../../sim/node/buffer.ts';
import type { Program, Range, Rank } from '../../../sim/node/rank-api.ts';
import { collBase } from './coll-base.ts';
import type { GatherArgs } from '../args.ts';
import { TAG } from '../tags.ts';
import { scratch } from './common.ts';
import { inOrderBinomialTree, inOrderSubtreeSize } from './trees.ts';

export function* binomialGather(rank: Rank, { send, recv, bytes, root }: GatherArgs): Program<void> {
  const size = rank.size;
  const me = rank.id;
  const v = (me - root + size) % size;
  const tree = inOrderBinomialTree(me, root, size);
  if (v % 2 === 1) {
    yield* rank.p2p.send(tree.parent, send, TAG.gather);
    return;
  }
  const span = inOrderSubtreeSize(v, size);
  const held: Range = me === root && root === 0 ? recv! : scratch(rank, 'gather-tmp', span * bytes);
  yield* rank.copy(send, subRange(held, 0, bytes));
  for (const child of tree.children) {
    const cv = (child - root + size) % size;
    yield* rank.p2p.recv(child, subRange(held, (cv - v) * bytes, inOrderSubtreeSize(cv, size) * bytes), TAG.gather);
  }
  if (me !== root) {
    yield* rank.p2p.send(tree.parent, held, TAG.gather);
  } else if (root !== 0) {
    // Shifted order back to rank order: shifted block v is rank (v + root)'s.
    yield* rank.copy(subRange(held, 0, (size - root) * bytes), subRange(recv!, root * bytes, (size - root) * bytes));
    yield* rank.copy(subRange(held, (size - root) * bytes, root * bytes), subRange(recv!, 0, root * bytes));
  }
}

export const gatherBinomial = collBase(
  'gather',
  'binomial',
  "in-order binomial tree, each node sending its subtree's blocks up at once (Open MPI coll_base binomial)",
  binomialGather,
);
