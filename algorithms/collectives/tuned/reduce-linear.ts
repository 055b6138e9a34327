// Linear reduction (ompi_coll_base_reduce_intra_basic_linear): every rank sends to the root; the
// root starts from rank N-1's data and folds in ranks N-2 down to 0, one receive at a time (the
// order keeps non-commutative operations right).
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import { collBase } from './coll-base.ts';
import type { ReduceArgs } from '../args.ts';
import { TAG } from '../tags.ts';
import { scratch } from './common.ts';

export function* linearReduce(rank: Rank, { send, recv, op, root }: ReduceArgs): Program<void> {
  const size = rank.size;
  if (rank.id !== root) {
    yield* rank.p2p.send(root, send, TAG.reduce);
    return;
  }
  const out = recv!;
  if (root === size - 1) yield* rank.copy(send, out);
  else yield* rank.p2p.recv(size - 1, out, TAG.reduce);
  const inbuf = scratch(rank, 'reduce-in0', send.bytes);
  for (let i = size - 2; i >= 0; i--) {
    if (i === root) {
      yield* rank.reduce(op, send, out);
    } else {
      yield* rank.p2p.recv(i, inbuf, TAG.reduce);
      yield* rank.reduce(op, inbuf, out);
    }
  }
}

export const reduceLinear = collBase(
  'reduce',
  'linear',
  'the root receives from each rank in turn, N-1 down to 0, and reduces (Open MPI coll_base basic_linear)',
  linearReduce,
);
