// Linear KNEM scatter and scatterv (Ma et al. 2010, seed 000, §IV.B): derived from the broadcast;
// the root declares its whole send buffer once and each non-root rank reads only its own block,
// at the offset its rank gives (scatterv: its displacement). Receiver-reading, all in parallel.
// The root copies its own block with a plain memcpy.
import type { KnemCookie, Program, Range, Rank } from '../../../sim/node/rank-api.ts';
import type { ScatterArgs, ScattervArgs } from '../args.ts';
import { defineAlgorithm } from '../../algorithm.ts';
import { equalBlocks, part } from '../blocks.ts';
import { pull } from './copy.ts';

/** Rank r receives `counts[r]` bytes from `displs[r]` of the root's `send`. */
function* linearScatter(rank: Rank, root: number, send: Range | undefined, recv: Range, counts: number[], displs: number[]): Program<void> {
  if (counts.every((c) => c === 0)) return;
  if (rank.id === root) {
    if (!send) throw new Error(`scatter: root ${root} has no send buffer`);
    const cookie = rank.size > 1 ? yield* rank.knem.createRegion(send, { read: true }) : undefined;
    if (cookie !== undefined) yield* rank.control.bcast(root, cookie);
    if (counts[root] > 0) yield* rank.copy(part(send, displs[root], counts[root]), recv, 'scatter: own block');
    if (cookie !== undefined) {
      yield* rank.control.gather(root); // every reader is done
      yield* rank.knem.destroyRegion(cookie);
    }
  } else {
    const cookie = yield* rank.control.bcast<KnemCookie>(root);
    yield* pull(rank, cookie, displs[rank.id], recv);
    yield* rank.control.gather(root, 'done');
  }
}

export function* knemLinearScatter(rank: Rank, { send, recv, bytes, root }: ScatterArgs): Program<void> {
  const { counts, displs } = equalBlocks(rank.size, bytes);
  yield* linearScatter(rank, root, send, recv, counts, displs);
}

export function* knemLinearScatterv(rank: Rank, { send, recv, counts, displs, root }: ScattervArgs): Program<void> {
  yield* linearScatter(rank, root, send, recv, counts, displs);
}

export const scatterKnemLinear = defineAlgorithm({
  name: 'scatter:knem-linear',
  operation: 'scatter',
  description: "root declares its send buffer once; each rank pulls its own block in parallel (Ma et al. 2010, §IV.B)",
  params: [],
  program: knemLinearScatter,
});

export const scattervKnemLinear = defineAlgorithm({
  name: 'scatterv:knem-linear',
  operation: 'scatterv',
  description: "root declares its send buffer once; each rank pulls its block at its displacement in parallel (Ma et al. 2010, §IV.B)",
  params: [],
  program: knemLinearScatterv,
});
