// Two-level compositions: one leader per NUMA node, any other catalogued algorithm at each level,
// each level on its own sub-communicator (sub-rank.ts).
import type { Algorithm } from '../../algorithm.ts';
import { twoLevelAllreduceAlgorithm } from './allreduce.ts';
import { twoLevelBcastAlgorithm } from './bcast.ts';
import type { Candidates } from './inner.ts';
import { testedWith, type PropertyHints } from '../../property-hints.ts';
import { twoLevelReduceAlgorithm } from './reduce.ts';

/** Property runs of every member: several NUMA nodes of several cores, every mechanism available;
 *  each member draws any choice at every level. */
const TWO_LEVEL_TEST: PropertyHints = {
  runs: [
    {
      label: 'machines of 2, 4 and 8 NUMA nodes',
      machines: ['tiny:2x2', 'tiny:4x4', 'tiny:8x8'],
      maxRanks: 64,
      maxBytes: 8192,
      numRuns: 15,
    },
  ],
};

export function twoLevelAlgorithms(candidates: Candidates): Algorithm[] {
  return testedWith(TWO_LEVEL_TEST, [
    twoLevelBcastAlgorithm(candidates),
    twoLevelReduceAlgorithm(candidates),
    twoLevelAllreduceAlgorithm(candidates),
  ]);
}
