// Linear scatter (ompi_coll_base_scatter_intra_basic_linear): the root sends block r to each rank r
// in rank order, one blocking send at a time, and copies its own.
import { subRange } from '../../../sim/node/buffer.ts';
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import { collBase } from './coll-base.ts';
import type { ScatterArgs } from '../args.ts';
import { TAG } from '../tags.ts';

export function* linearScatter(rank: Rank, { send, recv, bytes, root }: ScatterArgs): Program<void> {
  if (rank.id !== root) {
    yield* rank.p2p.recv(root, recv, TAG.scatter);
    return;
  }
  for (let i = 0; i < rank.size; i++) {
    if (i === root) yield* rank.copy(subRange(send!, i * bytes, bytes), recv);
    else yield* rank.p2p.send(i, subRange(send!, i * bytes, bytes), TAG.scatter);
  }
}

export const scatterLinear = collBase(
  'scatter',
  'linear',
  'the root sends each rank its block in turn (Open MPI coll_base basic_linear)',
  linearScatter,
);
