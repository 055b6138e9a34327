// Linear broadcast (ompi_coll_base_bcast_intra_basic_linear): the root posts a send to every other
// rank at once and waits for all of them; the others receive.
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import { collBase } from './coll-base.ts';
import type { BcastArgs } from '../args.ts';
import { TAG } from '../tags.ts';
import { waitAll } from './common.ts';

export function* linearBcast(rank: Rank, { buffer, root }: BcastArgs): Program<void> {
  if (rank.size === 1) return;
  if (rank.id !== root) {
    yield* rank.p2p.recv(root, buffer, TAG.bcast);
    return;
  }
  const sends = [];
  for (let i = 0; i < rank.size; i++) if (i !== root) sends.push(yield* rank.p2p.isend(i, buffer, TAG.bcast));
  yield* waitAll(sends);
}

export const bcastLinear = collBase(
  'bcast',
  'linear',
  'the root posts one send per rank at once (Open MPI coll_base basic_linear)',
  linearBcast,
);
