// Ranks grouped by the NUMA node they run on, taken from the machine, never from rank order: the
// sets the NUMA-aware collectives (hierarchical KNEM, two-level) build their levels from.
import type { RankTopology } from '../../sim/node/rank-api.ts';

/** NUMA node id -> its ranks in rank order, nodes in ascending id. */
export function ranksByNuma(topology: RankTopology, size: number): Map<number, number[]> {
  const byNuma = new Map<number, number[]>();
  for (let r = 0; r < size; r++) {
    const numa = topology.numaOf(r);
    const group = byNuma.get(numa);
    if (group) group.push(r);
    else byNuma.set(numa, [r]);
  }
  return new Map([...byNuma].sort(([a], [b]) => a - b));
}
