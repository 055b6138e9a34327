// Shared-memory fan-in reduction (Graham and Shipman, EuroPVM/MPI 2008; Open MPI coll/sm). Per
// fragment: a leaf copies its contribution into a slot of its segment and flags its parent; an
// interior node copies its own contribution into its slot, folds in each child's slot as it is
// flagged (reading it in place), tells the child the slot is free, then flags its parent; the root
// folds straight into its receive buffer. A rank reuses a slot once its parent has freed it.
import type { Program, Range, Rank, ReduceOp } from '../../../sim/node/rank-api.ts';
import { range } from '../../../sim/node/buffer.ts';
import { defineAlgorithm } from '../../algorithm.ts';
import type { ReduceArgs } from '../args.ts';
import { SM_PARAMS, smConfig, type SmConfig } from './config.ts';
import { fragments } from '../blocks.ts';
import { segmentOf, SLOT_FREE, slotOf } from './segment.ts';
import { smTree } from './tree.ts';

export function* smReduceFanIn(
  rank: Rank,
  send: Range,
  recv: Range | undefined,
  op: ReduceOp,
  root: number,
  cfg: SmConfig,
): Program<void> {
  const tree = smTree(rank.id, root, rank.size, cfg.degree);
  const frags = fragments(send.bytes, cfg.segsize);
  const mine = tree.parent >= 0 ? segmentOf(rank, cfg) : undefined;
  for (let f = 0; f < frags.length; f++) {
    const [at, n] = frags[f];
    const acc = mine ? slotOf(mine, cfg, f, n) : range(recv!.buf, recv!.offset + at, n);
    if (mine && f >= cfg.slots) yield* rank.control.recv(tree.parent);
    yield* rank.copy(range(send.buf, send.offset + at, n), acc, 'sm copy-in');
    for (const child of tree.children) {
      const theirs = (yield* rank.control.recv(child)) as Range;
      yield* rank.reduce(op, theirs, acc);
      yield* rank.control.send(child, SLOT_FREE);
    }
    if (mine) yield* rank.control.send(tree.parent, acc);
  }
  if (mine)
    for (let f = Math.max(0, frags.length - cfg.slots); f < frags.length; f++) yield* rank.control.recv(tree.parent);
}

export function* smReduce(rank: Rank, { send, recv, op, root, params }: ReduceArgs): Program<void> {
  yield* smReduceFanIn(rank, send, recv, op, root, smConfig(params, 'reduce:sm'));
}

export const reduceSm = defineAlgorithm({
  name: 'reduce:sm',
  operation: 'reduce',
  description:
    'shared-memory fan-in on a fixed-degree rank-order tree, pipelined in fragments (Graham & Shipman 2008, Open MPI coll/sm)',
  params: SM_PARAMS,
  program: smReduce,
});
