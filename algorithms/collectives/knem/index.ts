// The KNEM collectives (Ma et al. 2010, seed 000): linear (§IV) and hierarchical pipelined (§V).
// A new algorithm of the family is one module exporting its definition and one line here.
import { calling, type Algorithm } from '../../algorithm.ts';
import { testedWith, type PropertyHints } from '../../property-hints.ts';
import { allgatherKnemHierarchical } from './hierarchical-allgather.ts';
import { bcastKnemHierarchical } from './hierarchical-bcast.ts';
import { allgatherKnemLinear, allgathervKnemLinear } from './linear-allgather.ts';
import { alltoallKnemLinear, alltoallvKnemLinear } from './linear-alltoall.ts';
import { bcastKnemLinear } from './linear-bcast.ts';
import { gatherKnemLinear, gathervKnemLinear, scatterKnemLinear, scattervKnemLinear } from './linear-scatter-gather.ts';

/** Property runs of every member: machines with one, four and eight NUMA nodes, multi-hop routes. */
const KNEM_TEST: PropertyHints = {
  runs: [
    {
      label: 'small machines and presets',
      machines: ['tiny:2x2', 'tiny:4x4', 'ig', 'zoot', 'dunnington'],
      maxRanks: 48,
      maxBytes: 8192,
      numRuns: 12,
    },
  ],
};

export const knemAlgorithms: readonly Algorithm[] = testedWith(
  KNEM_TEST,
  calling('knem', [
    allgatherKnemHierarchical,
    bcastKnemHierarchical,
    allgatherKnemLinear,
    allgathervKnemLinear,
    alltoallKnemLinear,
    alltoallvKnemLinear,
    bcastKnemLinear,
    gatherKnemLinear,
    gathervKnemLinear,
    scatterKnemLinear,
    scattervKnemLinear,
  ]),
);
