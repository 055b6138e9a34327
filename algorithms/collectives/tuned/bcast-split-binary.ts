// Split-binary broadcast (ompi_coll_base_bcast_intra_split_bintree, coll_base_bcast.c). The root
// cuts the message in two halves and pipelines the first half down its left binary subtree (odd
// shifted ranks) and the second down its right one (even shifted ranks), segment by segment; then
// every rank swaps halves with its twin in the other subtree (rank+1 on the left, rank-1 on the
// right; with an even N the last rank, which has no twin, gets the second half from the root).
// Unlike the generic tree broadcast, every send of the halves' pipeline is blocking, to one child
// after the other, and a leaf receives each segment with a blocking receive, none posted ahead
// (coll_base_bcast.c, and coll_tuned_bcast.c in 1.3-1.6).
import { subRange } from '../../../sim/node/buffer.ts';
import type { Program, Range, Rank } from '../../../sim/node/rank-api.ts';
import type { ParamInfo } from '../../algorithm.ts';
import { collBase } from './coll-base.ts';
import type { BcastArgs } from '../args.ts';
import { bcastOnTree } from './bcast-generic.ts';
import { TAG } from '../tags.ts';
import { intParam } from '../params.ts';
import { segments } from './common.ts';
import { chainTree, kAryTree, type Tree } from './trees.ts';

const segsize: ParamInfo = {
  name: 'segsize',
  kind: 'bytes',
  default: 1024,
  min: 1,
  description:
    'segment size of each half (the fixed rules use 1 KiB for medium messages, 8 KiB for large ones on small communicators)',
};

export function* splitBinaryBcast(rank: Rank, args: BcastArgs): Program<void> {
  const { buffer, root } = args;
  const size = rank.size;
  const me = rank.id;
  const seg = intParam(args.params, segsize, 'bcast:split-binary');
  if (size === 1) return;
  const halves = [Math.ceil(buffer.bytes / 2), Math.floor(buffer.bytes / 2)];
  // Too small to split into two segmented halves: Open MPI falls back to the chain (pipeline).
  if (halves[1] === 0 || seg > halves[0] || seg > halves[1]) {
    yield* bcastOnTree(rank, buffer, chainTree(me, root, size), seg);
    return;
  }
  const half: Range[] = [subRange(buffer, 0, halves[0]), subRange(buffer, halves[0], halves[1])];
  const tree = kAryTree(2, me, root, size);
  const vrank = (me - root + size) % size;
  // Left (0) holds odd shifted ranks, right (1) even ones; the root counts as right.
  const lr = (vrank + 1) % 2;

  // Step 1: each half goes down its own subtree, pipelined in segments.
  if (me === root) {
    const parts = half.map((h) => segments(h.bytes, seg).map(([at, n]) => subRange(h, at, n)));
    for (let s = 0; s < parts[0].length; s++) {
      for (let i = 0; i < tree.children.length && i < 2; i++) {
        if (s < parts[i].length) yield* rank.p2p.send(tree.children[i], parts[i][s], TAG.bcast);
      }
    }
  } else {
    yield* halfDownTheTree(rank, half[lr], tree, seg);
  }

  // Step 2: swap halves with the twin in the other subtree.
  const pair = lr === 0 ? (me + 1) % size : (me + size - 1) % size;
  const last = (root + size - 1) % size;
  if (size % 2 !== 0) {
    if (me !== root) yield* rank.p2p.sendrecv(pair, half[lr], pair, half[1 - lr], TAG.bcast);
  } else if (me === root) {
    yield* rank.p2p.send(last, half[1], TAG.bcast);
  } else if (me === last) {
    yield* rank.p2p.recv(root, half[1], TAG.bcast);
  } else {
    yield* rank.p2p.sendrecv(pair, half[lr], pair, half[1 - lr], TAG.bcast);
  }
}

/** A non-root rank's half: an inner node posts the next segment's receive, waits for the current one
 *  and forwards it with a blocking send to each child in turn; a leaf receives segment by segment. */
function* halfDownTheTree(rank: Rank, half: Range, tree: Tree, seg: number): Program<void> {
  const segs = segments(half.bytes, seg).map(([at, n]) => subRange(half, at, n));
  if (tree.children.length === 0) {
    for (const s of segs) yield* rank.p2p.recv(tree.parent, s, TAG.bcast);
    return;
  }
  let current = yield* rank.p2p.irecv(tree.parent, segs[0], TAG.bcast);
  for (let i = 0; i < segs.length; i++) {
    const next = i + 1 < segs.length ? yield* rank.p2p.irecv(tree.parent, segs[i + 1], TAG.bcast) : undefined;
    yield* current();
    for (const child of tree.children) yield* rank.p2p.send(child, segs[i], TAG.bcast);
    if (next) current = next;
  }
}

export const bcastSplitBinary = collBase(
  'bcast',
  'split-binary',
  'halves pipelined down the two subtrees of a binary tree, then swapped between twins (Open MPI coll_base split_bintree)',
  splitBinaryBcast,
  {
    params: [segsize],
    test: { params: { segsize: { values: [100, 1000, 1024, 4096] } } },
  },
);
