// The sm family: Graham and Shipman's shared-memory fan-in/fan-out
// collectives as in Open MPI coll/sm.
// A new algorithm of the family is one module exporting its definition and one line here.
import { withoutPointToPoint, type Algorithm } from '../../algorithm.ts';
import { testedWith, type PropertyHints } from '../../property-hints.ts';
import { allreduceSm } from './allreduce.ts';
import { barrierSm } from './barrier.ts';
import { bcastSm } from './bcast.ts';
import { reduceSm } from './reduce.ts';

/** Property runs of every member: fragments of a few hundred bytes and more keep fragment counts
 *  (and run times) modest; sizes around the fragment sizes. */
const SM_TEST: PropertyHints = {
  runs: [
    {
      label: 'small machines',
      machines: ['tiny:2x2', 'tiny:4x4', 'tiny:1x3'],
      maxRanks: 16,
      maxBytes: 16384,
      numRuns: 40,
    },
    { label: 'presets', machines: ['dunnington', 'ig'], maxRanks: 64, maxBytes: 4096, numRuns: 6 },
  ],
  sizes: [299, 300, 301, 1023, 1024, 1025, 4095, 4096, 4097, 8191, 8192, 8193],
  params: {
    segsize: { values: [300, 1000, 1024, 4096, 8192] },
    degree: { integers: { min: 1, max: 6 } },
    slots: { integers: { min: 1, max: 8 } },
  },
};

export const smAlgorithms: readonly Algorithm[] = testedWith(
  SM_TEST,
  withoutPointToPoint([allreduceSm, barrierSm, bcastSm, reduceSm]),
);
