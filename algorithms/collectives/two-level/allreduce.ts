// Two-level allreduce: (1) the `intra` reduce algorithm reduces inside each NUMA node to its leader
// (the lowest rank of the node); (2) the `inter` allreduce algorithm combines the leaders' partial
// results, every leader receiving the result; (3) the `bcast` algorithm broadcasts it from each
// leader inside its NUMA node. Every operator is commutative and associative, so grouping the
// terms by NUMA node gives the same result. A level with one rank is skipped.
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import type { AllreduceArgs, BcastArgs } from '../args.ts';
import { numaGroups } from './groups.ts';
import type { Defined } from '../../algorithm.ts';
import { defineTwoLevel, innerAlgorithm, type Candidates, type Level } from './inner.ts';
import { reduceToLeader } from './leader-reduce.ts';
import { subRank } from './sub-rank.ts';

const NAME = 'allreduce:two-level';
const INTER = 1;
const INTRA_REDUCE = 2;
const INTRA_BCAST = 3;

function* twoLevelAllreduce(
  candidates: Candidates,
  rank: Rank,
  { send, recv, bytes, op, params }: AllreduceArgs,
): Program<void> {
  const intra = innerAlgorithm(NAME, params, 'intra', 'reduce', 'basic', candidates);
  const inter = innerAlgorithm(NAME, params, 'inter', 'allreduce', 'basic', candidates);
  const bcast = innerAlgorithm(NAME, params, 'bcast', 'bcast', 'basic', candidates);
  const me = rank.id;
  if (bytes === 0) return;
  const g = numaGroups(rank.topology, rank.size, 0);
  const group = g.groupOf(me);
  const leader = g.leaderOf(me);
  const multiNuma = g.leaders.length > 1;
  // With one NUMA node the leader's group reduction is already the result.
  const partial = yield* reduceToLeader(rank, g, intra, { send, recv, bytes, op }, INTRA_REDUCE);
  if (me === leader) {
    if (multiNuma) {
      const comm = subRank(rank, g.leaders, INTER);
      yield* inter.program(comm, {
        send: partial!,
        recv,
        bytes,
        op,
        params: { ...inter.params, op },
      } satisfies AllreduceArgs);
    } else if (group.length === 1) {
      yield* rank.copy(send, recv, 'allreduce: own data');
    }
  }
  if (group.length > 1) {
    const comm = subRank(rank, group, INTRA_BCAST);
    yield* bcast.program(comm, {
      buffer: recv,
      bytes,
      root: group.indexOf(leader),
      params: bcast.params,
    } satisfies BcastArgs);
  }
}

const LEVELS: Level[] = [
  { param: 'intra', operation: 'reduce', description: 'reduce algorithm inside each NUMA node, to its leader' },
  { param: 'inter', operation: 'allreduce', description: 'allreduce algorithm among the NUMA leaders' },
  { param: 'bcast', operation: 'bcast', description: 'broadcast algorithm of the result inside each NUMA node' },
];
const DESCRIPTION =
  'one leader per NUMA node: `intra` reduces to each leader, `inter` allreduces among the leaders, `bcast` spreads the result inside each NUMA node';

/** The composition over `candidates`, the catalogue's other algorithms. */
export const twoLevelAllreduceAlgorithm = (candidates: Candidates): Defined<'allreduce'> =>
  defineTwoLevel('allreduce', DESCRIPTION, LEVELS, candidates, (rank, args) =>
    twoLevelAllreduce(candidates, rank, args),
  );
