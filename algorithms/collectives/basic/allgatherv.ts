// Allgatherv of Open MPI's basic component (coll_basic_allgatherv.c): a gatherv to rank 0, then
// rank 0 broadcasts the blocks. Open MPI broadcasts them as one message described by an indexed
// datatype; ranges describe contiguous bytes only, so this broadcasts the span from the first
// block to the end of the last one, which is the same single message when the blocks are packed
// (the default layout). Displacements with gaps make the span carry the root's gap bytes too.
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import { range } from '../../../sim/node/buffer.ts';
import { defineAlgorithm } from '../../algorithm.ts';
import type { AllgathervArgs } from '../args.ts';
import { basicBcast } from './bcast.ts';
import { basicGatherv } from './gatherv.ts';
import { TAG } from '../tags.ts';

export function* basicAllgatherv(rank: Rank, { send, recv, counts, displs, params }: AllgathervArgs): Program<void> {
  yield* basicGatherv(
    rank,
    { send, recv: rank.id === 0 ? recv : undefined, counts, displs, root: 0, params },
    TAG.allgatherv,
  );
  const used = counts.map((c, r) => ({ start: displs[r], end: displs[r] + c })).filter((b) => b.end > b.start);
  if (used.length === 0) return;
  const start = Math.min(...used.map((b) => b.start));
  const end = Math.max(...used.map((b) => b.end));
  const span = range(recv.buf, recv.offset + start, end - start);
  yield* basicBcast(rank, { buffer: span, bytes: span.bytes, root: 0, params }, TAG.allgatherv);
}

export const allgathervBasic = defineAlgorithm({
  name: 'allgatherv:basic',
  operation: 'allgatherv',
  description: 'linear (Open MPI basic): gatherv to rank 0, then rank 0 broadcasts the blocks',
  params: [],
  program: basicAllgatherv,
});
