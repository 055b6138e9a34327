// The two-level tree of the hierarchical KNEM broadcast (Ma et al. 2010, seed 000, §V, Figure 4):
// ranks are split into sets by NUMA node, one rank of each non-root set is its leader (an
// intermediate peer), every other rank is a leaf. The root's children are the leaders and the
// leaves of its own set; a leader's children are the leaves of its set. The sets come from where
// the ranks run, never from rank order; within a set the lowest rank leads.
import type { RankTopology } from '../../../sim/node/rank-api.ts';
import { ranksByNuma } from '../numa.ts';

export interface NumaTree {
  root: number;
  /** Leaders of the non-root NUMA nodes, by NUMA node id. */
  leaders: number[];
  /** Whom `rank` hands data to: for the root the leaders, then the leaves of its own set. */
  children(rank: number): number[];
  /** Whom `rank` gets its data from (undefined for the root). */
  parent(rank: number): number | undefined;
}

export function numaTree(topology: RankTopology, size: number, root: number): NumaTree {
  const sets = ranksByNuma(topology, size);
  const rootNuma = topology.numaOf(root);
  const parentOf = new Map<number, number>();
  const childrenOf = new Map<number, number[]>();
  const leaders: number[] = [];
  for (const [numa, [leader, ...leaves]] of sets) {
    if (numa === rootNuma) continue;
    leaders.push(leader);
    parentOf.set(leader, root);
    childrenOf.set(leader, leaves);
    for (const leaf of leaves) parentOf.set(leaf, leader);
  }
  const rootLeaves = sets.get(rootNuma)!.filter((r) => r !== root);
  for (const leaf of rootLeaves) parentOf.set(leaf, root);
  childrenOf.set(root, [...leaders, ...rootLeaves]);
  return {
    root,
    leaders,
    children: (rank) => childrenOf.get(rank) ?? [],
    parent: (rank) => parentOf.get(rank),
  };
}
