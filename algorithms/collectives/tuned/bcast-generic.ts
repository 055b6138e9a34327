// The segmented tree broadcast every tree-shaped tuned bcast runs (ompi_coll_base_bcast_intra_generic,
// ompi/mca/coll/base/coll_base_bcast.c): the root sends each segment to all its children and waits
// for those sends before the next segment; an intermediate node keeps one receive posted ahead,
// forwards each segment to its children as it lands; a leaf just receives the segments in order.
import { subRange } from '../../../sim/node/buffer.ts';
import type { Program, Range, Rank } from '../../../sim/node/rank-api.ts';
import { TAG } from '../tags.ts';
import { segments, waitAll } from './common.ts';
import type { Tree } from './trees.ts';

export function* bcastOnTree(rank: Rank, buffer: Range, tree: Tree, segsize: number): Program<void> {
  const segs = segments(buffer.bytes, segsize).map(([at, n]) => subRange(buffer, at, n));
  if (tree.parent < 0) {
    for (const seg of segs) {
      const sends = [];
      for (const child of tree.children) sends.push(yield* rank.p2p.isend(child, seg, TAG.bcast));
      yield* waitAll(sends);
    }
    return;
  }
  // Receive i+1 is posted before segment i is forwarded, so the pipeline never drains.
  let pending = yield* rank.p2p.irecv(tree.parent, segs[0], TAG.bcast);
  for (let i = 0; i < segs.length; i++) {
    const next = i + 1 < segs.length ? yield* rank.p2p.irecv(tree.parent, segs[i + 1], TAG.bcast) : undefined;
    yield* pending();
    const sends = [];
    for (const child of tree.children) sends.push(yield* rank.p2p.isend(child, segs[i], TAG.bcast));
    yield* waitAll(sends);
    if (next) pending = next;
  }
}
