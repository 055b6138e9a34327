// The two levels: ranks grouped by the NUMA node they run on (from the machine, never from rank
// order), one leader per group. The root leads its own group, so the data or the result never
// needs an extra hop inside the root's node; elsewhere the lowest rank leads. Leaders are listed
// by NUMA node id, group members by rank.
import type { RankTopology } from '../../../sim/node/rank-api.ts';
import { ranksByNuma } from '../numa.ts';

export interface NumaGroups {
  leaders: number[];
  /** The members of `rank`'s group, `rank` included. */
  groupOf(rank: number): number[];
  leaderOf(rank: number): number;
}

export function numaGroups(topology: RankTopology, size: number, root: number): NumaGroups {
  const byNuma = ranksByNuma(topology, size);
  const leaderOfNuma = new Map<number, number>();
  for (const [numa, group] of byNuma) leaderOfNuma.set(numa, group.includes(root) ? root : group[0]);
  return {
    leaders: [...leaderOfNuma.values()],
    groupOf: (rank) => byNuma.get(topology.numaOf(rank))!,
    leaderOf: (rank) => leaderOfNuma.get(topology.numaOf(rank))!,
  };
}
