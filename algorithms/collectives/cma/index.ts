// The CMA collectives: the linear designs of Ma et al. 2010 (seed 000, §IV) over Cross Memory
// Attach, and contention-aware variants that bound the readers of one process (seed 001).
// A new algorithm of the family is one module exporting its definition and one line here.
import { calling, type Algorithm } from '../../algorithm.ts';
import { testedWith, type PropertyHints } from '../../property-hints.ts';
import { allgatherCmaLinear, allgathervCmaLinear, allgatherCmaStaggered, allgathervCmaStaggered } from './allgather.ts';
import { alltoallCmaLinear, alltoallvCmaLinear } from './alltoall.ts';
import { bcastCmaLinear, bcastCmaStaggered } from './bcast.ts';
import {
  gatherCmaLinear,
  gatherCmaStaggered,
  gathervCmaLinear,
  gathervCmaStaggered,
  scatterCmaLinear,
  scatterCmaStaggered,
  scattervCmaLinear,
  scattervCmaStaggered,
} from './scatter-gather.ts';

/** Property runs of every member: small machines and KNL's 64 cores on one page-table lock. */
const CMA_TEST: PropertyHints = {
  runs: [
    {
      label: 'small machines and knl',
      machines: ['tiny:2x2', 'tiny:4x4', 'knl'],
      maxRanks: 64,
      maxBytes: 8192,
      numRuns: 12,
    },
  ],
};

export const cmaAlgorithms: readonly Algorithm[] = testedWith(
  CMA_TEST,
  calling('cma', [
    allgatherCmaLinear,
    allgathervCmaLinear,
    allgatherCmaStaggered,
    allgathervCmaStaggered,
    alltoallCmaLinear,
    alltoallvCmaLinear,
    bcastCmaLinear,
    bcastCmaStaggered,
    gatherCmaLinear,
    gathervCmaLinear,
    gatherCmaStaggered,
    gathervCmaStaggered,
    scatterCmaLinear,
    scattervCmaLinear,
    scatterCmaStaggered,
    scattervCmaStaggered,
  ]),
);
