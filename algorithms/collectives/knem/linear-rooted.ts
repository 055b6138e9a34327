// What the linear KNEM scatter and gather share (Ma et al. 2010, seed 000, §IV.B): the root
// declares its whole buffer once as a region (readable for the scatter, writable for the gather)
// and broadcasts the cookie; every other rank moves its own block at its offset itself, all in
// parallel on their own cores; the root copies its own block with a plain memcpy and destroys the
// region once every peer has reported done.
import { subRange } from '../../../sim/node/buffer.ts';
import type { KnemCookie, Program, Rank } from '../../../sim/node/rank-api.ts';
import { sharedAtRoot, type RootedBlocks } from '../rooted-blocks.ts';
import { pull, push } from './copy.ts';

export function* knemLinearRootedOf(rank: Rank, call: RootedBlocks): Program<void> {
  const { way, root, own, counts, displs } = call;
  if (counts.every((c) => c === 0)) return;
  if (rank.id === root) {
    const shared = sharedAtRoot(call);
    const cookie =
      rank.size > 1
        ? yield* rank.knem.createRegion(shared, way === 'scatter' ? { read: true } : { write: true })
        : undefined;
    if (cookie !== undefined) yield* rank.control.bcast(root, cookie);
    if (counts[root] > 0) {
      const block = subRange(shared, displs[root], counts[root]);
      if (way === 'scatter') yield* rank.copy(block, own, 'scatter: own block');
      else yield* rank.copy(own, block, 'gather: own block');
    }
    if (cookie !== undefined) {
      yield* rank.control.gather(root); // every peer is done
      yield* rank.knem.destroyRegion(cookie);
    }
  } else {
    const cookie = yield* rank.control.bcast<KnemCookie>(root);
    if (way === 'scatter') yield* pull(rank, cookie, displs[rank.id], own);
    else yield* push(rank, cookie, displs[rank.id], own);
    yield* rank.control.gather(root, 'done');
  }
}
