// The basic family: Open MPI's coll_basic linear algorithms over
// point-to-point.
// A new algorithm of the family is one module exporting its definition and one line here.
import type { Algorithm } from '../../algorithm.ts';
import { testedWith, type PropertyHints } from '../../property-hints.ts';
import { allgatherBasic } from './allgather.ts';
import { allgathervBasic } from './allgatherv.ts';
import { allreduceBasic } from './allreduce.ts';
import { alltoallBasic } from './alltoall.ts';
import { alltoallvBasic } from './alltoallv.ts';
import { barrierBasic } from './barrier.ts';
import { bcastBasic } from './bcast.ts';
import { gatherBasic } from './gather.ts';
import { gathervBasic } from './gatherv.ts';
import { reduceBasic } from './reduce.ts';
import { scatterBasic } from './scatter.ts';
import { scattervBasic } from './scatterv.ts';

/** Property runs of every member: the N(N-1) exchanges of alltoall(v) take fewer ranks (alltoall.ts). */
const BASIC_TEST: PropertyHints = {
  runs: [
    {
      label: 'small machines and presets',
      machines: ['tiny:2x2', 'tiny:4x4', 'zoot', 'ig', 'knl', 'dunnington'],
      maxRanks: 64,
      maxBytes: 8192,
      numRuns: 20,
    },
  ],
  sizes: [65535, 65536, 65537],
};

export const basicAlgorithms: readonly Algorithm[] = testedWith(BASIC_TEST, [
  allgatherBasic,
  allgathervBasic,
  allreduceBasic,
  alltoallBasic,
  alltoallvBasic,
  barrierBasic,
  bcastBasic,
  gatherBasic,
  gathervBasic,
  reduceBasic,
  scatterBasic,
  scattervBasic,
]);
