// Two-level reduce: (1) the `intra` algorithm reduces inside each NUMA node to its leader (the root
// leads its own node), into the leader's partial-result buffer; (2) the `inter` algorithm reduces
// the leaders' partial results to the root. Every operator the semantics offer is commutative and
// associative, so grouping the terms by NUMA node gives the same result. A level with one rank is
// skipped: its partial result is the rank's own data.
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import type { ReduceArgs } from '../args.ts';
import { numaGroups } from './groups.ts';
import type { Defined } from '../../algorithm.ts';
import { defineTwoLevel, innerAlgorithm, type Candidates, type Level } from './inner.ts';
import { reduceToLeader } from './leader-reduce.ts';
import { subRank } from './sub-rank.ts';

const NAME = 'reduce:two-level';
const INTER = 1;
const INTRA = 2;

function* twoLevelReduce(
  candidates: Candidates,
  rank: Rank,
  { send, recv, bytes, op, root, params }: ReduceArgs,
): Program<void> {
  const inter = innerAlgorithm(NAME, params, 'inter', 'reduce', 'basic', candidates);
  const intra = innerAlgorithm(NAME, params, 'intra', 'reduce', 'basic', candidates);
  const me = rank.id;
  if (me === root && !recv) throw new Error(`reduce: root ${root} has no receive buffer`);
  if (bytes === 0) return;
  const g = numaGroups(rank.topology, rank.size, root);
  const group = g.groupOf(me);
  const leader = g.leaderOf(me);
  // With one NUMA node the root is the only leader: its group's reduction is the result.
  const partial = yield* reduceToLeader(rank, g, intra, { send, recv, bytes, op }, INTRA);
  if (me !== leader) return;
  if (g.leaders.length > 1) {
    const comm = subRank(rank, g.leaders, INTER);
    yield* inter.program(comm, {
      send: partial!,
      recv: me === root ? recv : undefined,
      bytes,
      op,
      root: g.leaders.indexOf(root),
      params: { ...inter.params, op },
    } satisfies ReduceArgs);
  } else if (group.length === 1) {
    yield* rank.copy(send, recv!, 'reduce: own data');
  }
}

const LEVELS: Level[] = [
  { param: 'inter', operation: 'reduce', description: 'reduce algorithm among the NUMA leaders' },
  { param: 'intra', operation: 'reduce', description: 'reduce algorithm inside each NUMA node' },
];
const DESCRIPTION =
  "one leader per NUMA node: `intra` reduces inside each NUMA node to its leader, then `inter` reduces the leaders' results to the root";

/** The composition over `candidates`, the catalogue's other algorithms. */
export const twoLevelReduceAlgorithm = (candidates: Candidates): Defined<'reduce'> =>
  defineTwoLevel('reduce', DESCRIPTION, LEVELS, candidates, (rank, args) => twoLevelReduce(candidates, rank, args));
