// Two-level allreduce: (1) the `intra` reduce algorithm reduces inside each NUMA node to its leader
// (the lowest rank of the node); (2) the `inter` allreduce algorithm combines the leaders' partial
// results, every leader receiving the result; (3) the `bcast` algorithm broadcasts it from each
// leader inside its NUMA node. Every operator is commutative and associative, so grouping the
// terms by NUMA node gives the same result. A level with one rank is skipped.
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import type { AllreduceArgs, BcastArgs } from '../args.ts';
import { registerAlgorithm } from '../../registry.ts';
import { numaGroups } from './groups.ts';
import { innerAlgorithm, innerParam } from './inner.ts';
import { reduceToLeader } from './leader-reduce.ts';
import { subRank } from './sub-rank.ts';
import '../ops.ts';

const NAME = 'allreduce:two-level';
const INTER = 1;
const INTRA_REDUCE = 2;
const INTRA_BCAST = 3;

export function* twoLevelAllreduce(rank: Rank, { send, recv, bytes, op, params }: AllreduceArgs): Program<void> {
  const intra = innerAlgorithm(NAME, params, 'intra', 'reduce', 'basic');
  const inter = innerAlgorithm(NAME, params, 'inter', 'allreduce', 'basic');
  const bcast = innerAlgorithm(NAME, params, 'bcast', 'bcast', 'basic');
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
      yield* inter.program(comm, { send: partial!, recv, bytes, op, params: { ...inter.params, op } } satisfies AllreduceArgs);
    } else if (group.length === 1) {
      yield* rank.copy(send, recv, 'allreduce: own data');
    }
  }
  if (group.length > 1) {
    const comm = subRank(rank, group, INTRA_BCAST);
    yield* bcast.program(comm, { buffer: recv, bytes, root: group.indexOf(leader), params: bcast.params } satisfies BcastArgs);
  }
}

registerAlgorithm({
  name: NAME,
  operation: 'allreduce',
  description: "one leader per NUMA node: `intra` reduces to each leader, `inter` allreduces among the leaders, `bcast` spreads the result inside each NUMA node",
  params: [
    innerParam('intra', 'reduce', 'basic', 'reduce algorithm inside each NUMA node, to its leader'),
    innerParam('inter', 'allreduce', 'basic', 'allreduce algorithm among the NUMA leaders'),
    innerParam('bcast', 'bcast', 'basic', 'broadcast algorithm of the result inside each NUMA node'),
  ],
  program: twoLevelAllreduce,
});
