// The XPMEM collectives: the zero-copy partitioned reductions of Hashmi et al. (seed 001), and a
// broadcast and gather that read or write the peer's buffer through XPMEM attachments.
// A new algorithm of the family is one module exporting its definition and one line here.
import { calling, type Algorithm } from '../../algorithm.ts';
import { testedWith, type PropertyHints } from '../../property-hints.ts';
import { allreduceXpmem } from './allreduce.ts';
import { bcastXpmem } from './bcast.ts';
import { gatherXpmem, gathervXpmem } from './gather.ts';
import { reduceXpmem } from './reduce.ts';

/** Property runs of every member: small machines and KNL's 64 cores. */
const XPMEM_TEST: PropertyHints = {
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

export const xpmemAlgorithms: readonly Algorithm[] = testedWith(
  XPMEM_TEST,
  calling('xpmem', [allreduceXpmem, bcastXpmem, gatherXpmem, gathervXpmem, reduceXpmem]),
);
