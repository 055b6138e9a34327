// Linear broadcast of Open MPI's basic component (coll_basic_bcast.c, mca_coll_basic_bcast_lin_intra):
// every non-root rank receives from the root; the root sends to each other rank in turn, posting
// the sends as isends and waiting for all of them. The root's core performs every copy-in, hence
// O(N T) time and one shared-memory buffer per root-receiver pair (Ma et al. 2010, Table I).
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import { defineAlgorithm } from '../../algorithm.ts';
import type { BcastArgs } from '../args.ts';
import { TAG } from '../tags.ts';

export function* basicBcast(rank: Rank, { buffer, root }: BcastArgs, tag: number = TAG.bcast): Program<void> {
  if (rank.id !== root) {
    yield* rank.p2p.recv(root, buffer, tag);
    return;
  }
  const pending: Array<() => Program<void>> = [];
  for (let i = 0; i < rank.size; i++) {
    if (i === root) continue;
    pending.push(yield* rank.p2p.isend(i, buffer, tag));
  }
  for (const done of pending) yield* done();
}

export const bcastBasic = defineAlgorithm({
  name: 'bcast:basic',
  operation: 'bcast',
  description: 'linear (Open MPI basic): the root sends the whole buffer to every other rank in turn',
  params: [],
  program: (rank: Rank, args: BcastArgs) => basicBcast(rank, args),
});
