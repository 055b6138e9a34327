// Two-level broadcast: the generic leader-per-NUMA-node composition (as in Open MPI's coll_ml and
// MVAPICH's two-level shared-memory designs, and the hierarchical KNEM broadcast of Ma et al. 2010,
// seed 000, §V): (1) the `inter` algorithm broadcasts among the NUMA leaders, the root leading its
// own node; (2) the `intra` algorithm broadcasts from each leader inside its NUMA node. Only one
// copy of the message crosses to each NUMA node. Each level runs on its own sub-communicator.
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import type { BcastArgs } from '../args.ts';
import { numaGroups } from './groups.ts';
import type { Defined } from '../../algorithm.ts';
import { defineTwoLevel, innerAlgorithm, type Candidates, type Level } from './inner.ts';
import { subRank } from './sub-rank.ts';

const NAME = 'bcast:two-level';
/** Context ids of the two levels' sub-communicators. */
const INTER = 1;
const INTRA = 2;

function* twoLevelBcast(candidates: Candidates, rank: Rank, { buffer, bytes, root, params }: BcastArgs): Program<void> {
  const inter = innerAlgorithm(NAME, params, 'inter', 'bcast', 'basic', candidates);
  const intra = innerAlgorithm(NAME, params, 'intra', 'bcast', 'basic', candidates);
  if (rank.size === 1 || bytes === 0) return;
  const g = numaGroups(rank.topology, rank.size, root);
  const group = g.groupOf(rank.id);
  const leader = g.leaderOf(rank.id);
  if (rank.id === leader && g.leaders.length > 1) {
    const comm = subRank(rank, g.leaders, INTER);
    yield* inter.program(comm, {
      buffer,
      bytes,
      root: g.leaders.indexOf(root),
      params: inter.params,
    } satisfies BcastArgs);
  }
  if (group.length > 1) {
    const comm = subRank(rank, group, INTRA);
    yield* intra.program(comm, {
      buffer,
      bytes,
      root: group.indexOf(leader),
      params: intra.params,
    } satisfies BcastArgs);
  }
}

const LEVELS: Level[] = [
  { param: 'inter', operation: 'bcast', description: 'broadcast algorithm among the NUMA leaders' },
  { param: 'intra', operation: 'bcast', description: 'broadcast algorithm inside each NUMA node' },
];
const DESCRIPTION =
  'one leader per NUMA node: `inter` broadcasts among the leaders, then `intra` inside each NUMA node';

/** The composition over `candidates`, the catalogue's other algorithms. */
export const twoLevelBcastAlgorithm = (candidates: Candidates): Defined<'bcast'> =>
  defineTwoLevel('bcast', DESCRIPTION, LEVELS, candidates, (rank, args) => twoLevelBcast(candidates, rank, args), 25);
