// XPMEM broadcast: the root exposes its buffer and sends the segment out of band; every other rank
// attaches the root's buffer and copies it with plain loads and stores, all at once. Unlike CMA,
// no page is pinned per copy and no lock of the root is taken per read (seed 001: "XPMEM based
// reads do not have locking overheads"); only xpmem_get on a cache miss queues on the root's
// segment lock. The root returns once every reader is done.
//
// With a `chunk`, each reader still attaches the whole buffer once but copies it chunk after chunk,
// so readers that started together stream the same chunk at the same time: the lines one brings
// into a shared cache serve the others, instead of every reader streaming the whole buffer alone.
import { subRange } from '../../../sim/node/buffer.ts';
import type { Program, Range, Rank } from '../../../sim/node/rank-api.ts';
import type { ParamInfo } from '../../algorithm.ts';
import type { BcastArgs } from '../args.ts';
import { defineAlgorithm } from '../../algorithm.ts';
import { wholeParam } from '../params.ts';
import { expose, withAttached, type Exposed } from './expose.ts';

const CHUNK: ParamInfo = {
  name: 'chunk',
  kind: 'bytes',
  default: 0,
  min: 0,
  description: 'bytes each reader copies at a time from the attached root buffer; 0 copies the whole message at once',
};

export function* xpmemBcast(rank: Rank, { buffer, bytes, root, params }: BcastArgs): Program<void> {
  const chunk = wholeParam(params, CHUNK, 'bcast:xpmem');
  if (rank.size === 1 || bytes === 0) return;
  if (rank.id === root) {
    yield* rank.control.bcast(root, yield* expose(rank, buffer));
    yield* rank.control.gather(root); // every reader is done
  } else {
    const theirs = yield* rank.control.bcast<Exposed>(root);
    yield* withAttached(rank, root, theirs, 0, bytes, (view) => copyInChunks(rank, view, buffer, chunk));
    yield* rank.control.gather(root, 'done');
  }
}

function* copyInChunks(rank: Rank, from: Range, to: Range, chunk: number): Program<void> {
  const step = chunk === 0 ? from.bytes : chunk;
  for (let offset = 0; offset < from.bytes; offset += step) {
    const n = Math.min(step, from.bytes - offset);
    yield* rank.copy(subRange(from, offset, n), subRange(to, offset, n), 'bcast: xpmem read');
  }
}

export const bcastXpmem = defineAlgorithm({
  name: 'bcast:xpmem',
  operation: 'bcast',
  description:
    'root exposes its buffer; every other rank attaches it through XPMEM and copies it, all at once (seed 001)',
  params: [CHUNK],
  program: xpmemBcast,
});
