// What the CMA scatter and gather share (Ma et al. 2010, seed 000, §IV.B, with CMA in place of
// KNEM): the root sends the address of its buffer out of band and every other rank moves only its
// own block with one CMA call, in parallel on its own core; the root copies its own block with a
// plain memcpy and returns once every peer is done. Waves of `concurrency` peers bound how many
// queue on the root's page-table lock at once (seed 001).
import { subRange } from '../../../sim/node/buffer.ts';
import type { Program, Range, Rank } from '../../../sim/node/rank-api.ts';
import { sharedAtRoot, type RootedBlocks } from '../rooted-blocks.ts';
import { readFrom, writeTo } from './iov.ts';
import { waves } from './schedule.ts';

export function* cmaRootedOf(rank: Rank, call: RootedBlocks, concurrency: number): Program<void> {
  const { way, root, own, counts, displs } = call;
  if (rank.id === root) {
    const shared = sharedAtRoot(call);
    if (counts[root] > 0) {
      const block = subRange(shared, displs[root], counts[root]);
      if (way === 'scatter') yield* rank.copy(block, own, 'scatter: own block');
      else yield* rank.copy(own, block, 'gather: own block');
    }
    const peers = counts.flatMap((c, r) => (r !== root && c > 0 ? [r] : []));
    for (const wave of waves(peers, concurrency)) {
      for (const r of wave) yield* rank.control.send(r, shared); // the address of the root's buffer
      for (const r of wave) yield* rank.control.recv(r); // done with it
    }
  } else if (counts[rank.id] > 0) {
    const theirs = (yield* rank.control.recv(root)) as Range;
    const block = subRange(theirs, displs[rank.id], counts[rank.id]);
    if (way === 'scatter') yield* readFrom(rank, root, own, block);
    else yield* writeTo(rank, root, own, block);
    yield* rank.control.send(root, 'done');
  }
}
