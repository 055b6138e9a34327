// Shared-memory fan-out broadcast (Graham and Shipman, "MPI support for multi-core architectures:
// optimized shared memory collectives", EuroPVM/MPI 2008; Open MPI coll/sm, coll_sm_bcast.c).
// Per fragment: the root copies it from the user buffer into a slot of its segment and flags its
// children; an interior node copies it from its parent's slot into its own slot, flags its own
// children, then copies it into its user buffer; a leaf copies from its parent's slot straight
// into its user buffer. Fragments pipeline down the tree; a writer reuses a slot only once every
// child has reported it free.
import type { Program, Range, Rank } from '../../../sim/node/rank-api.ts';
import { range } from '../../../sim/node/buffer.ts';
import { defineAlgorithm } from '../../algorithm.ts';
import type { BcastArgs } from '../args.ts';
import { SM_PARAMS, smConfig, type SmConfig } from './config.ts';
import { fragments } from '../blocks.ts';
import { segmentOf, SLOT_FREE, slotOf } from './segment.ts';
import { smTree } from './tree.ts';

function* slotsFreed(rank: Rank, children: number[]): Program<void> {
  for (const child of children) yield* rank.control.recv(child);
}

export function* smBcastFanOut(rank: Rank, buffer: Range, root: number, cfg: SmConfig): Program<void> {
  if (rank.size === 1) return;
  const tree = smTree(rank.id, root, rank.size, cfg.degree);
  const frags = fragments(buffer.bytes, cfg.segsize);
  const mine = tree.children.length > 0 ? segmentOf(rank, cfg) : undefined;
  for (let f = 0; f < frags.length; f++) {
    const [at, n] = frags[f];
    const user = range(buffer.buf, buffer.offset + at, n);
    // My slot for fragment f last held fragment f - slots: wait until every child is done with it.
    if (mine && f >= cfg.slots) yield* slotsFreed(rank, tree.children);
    if (tree.parent < 0) {
      const out = slotOf(mine!, cfg, f, n);
      yield* rank.copy(user, out, 'sm copy-in');
      for (const child of tree.children) yield* rank.control.send(child, out);
      continue;
    }
    const theirs = (yield* rank.control.recv(tree.parent)) as Range;
    if (mine) {
      const out = slotOf(mine, cfg, f, n);
      yield* rank.copy(theirs, out, 'sm forward');
      yield* rank.control.send(tree.parent, SLOT_FREE);
      for (const child of tree.children) yield* rank.control.send(child, out);
      yield* rank.copy(out, user, 'sm copy-out');
    } else {
      yield* rank.copy(theirs, user, 'sm copy-out');
      yield* rank.control.send(tree.parent, SLOT_FREE);
    }
  }
  // The slots still in use when the message ends must be released before the next operation.
  if (mine)
    for (let f = Math.max(0, frags.length - cfg.slots); f < frags.length; f++) yield* slotsFreed(rank, tree.children);
}

export function* smBcast(rank: Rank, { buffer, root, params }: BcastArgs): Program<void> {
  yield* smBcastFanOut(rank, buffer, root, smConfig(params, 'bcast:sm'));
}

export const bcastSm = defineAlgorithm({
  name: 'bcast:sm',
  operation: 'bcast',
  description:
    'shared-memory fan-out on a fixed-degree rank-order tree, pipelined in fragments (Graham & Shipman 2008, Open MPI coll/sm)',
  params: SM_PARAMS,
  program: smBcast,
});
