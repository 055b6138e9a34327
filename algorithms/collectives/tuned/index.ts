// The tuned family: Open MPI's coll_base algorithms over
// point-to-point and `<op>:tuned`, which picks among them with coll_tuned's fixed rules.
// A new algorithm of the family is one module exporting its definition and one line here.
import type { Algorithm } from '../../algorithm.ts';
import { testedWith, type PropertyHints } from '../../property-hints.ts';
import { allgatherBruck } from './allgather-bruck.ts';
import { allgatherNeighborExchange } from './allgather-neighbor-exchange.ts';
import { allgatherRecursiveDoubling } from './allgather-recursive-doubling.ts';
import { allgatherRing } from './allgather-ring.ts';
import { allgatherTwoProcs } from './allgather-two-procs.ts';
import { allreduceNonoverlapping } from './allreduce-nonoverlapping.ts';
import { allreduceRecursiveDoubling } from './allreduce-recursive-doubling.ts';
import { allreduceRing } from './allreduce-ring.ts';
import { alltoallBruck } from './alltoall-bruck.ts';
import { alltoallLinear } from './alltoall-linear.ts';
import { alltoallPairwise } from './alltoall-pairwise.ts';
import { alltoallTwoProcs } from './alltoall-two-procs.ts';
import { barrierDissemination } from './barrier-dissemination.ts';
import { barrierRecursiveDoubling } from './barrier-recursive-doubling.ts';
import { bcastBinary } from './bcast-binary.ts';
import { bcastBinomial } from './bcast-binomial.ts';
import { bcastKnomial } from './bcast-knomial.ts';
import { bcastLinear } from './bcast-linear.ts';
import { bcastPipeline } from './bcast-pipeline.ts';
import { bcastSplitBinary } from './bcast-split-binary.ts';
import { gatherBinomial } from './gather-binomial.ts';
import { gatherLinearSync } from './gather-linear-sync.ts';
import { gatherLinear } from './gather-linear.ts';
import { reduceBinary } from './reduce-binary.ts';
import { reduceBinomial } from './reduce-binomial.ts';
import { reduceLinear } from './reduce-linear.ts';
import { reducePipeline } from './reduce-pipeline.ts';
import { scatterBinomial } from './scatter-binomial.ts';
import { scatterLinear } from './scatter-linear.ts';
import { scatterLinearNb } from './scatter-linear-nb.ts';

/** Property runs of every member, and of `<op>:tuned` (tuned.ts); sizes around the segment sizes
 *  the members draw. */
export const TUNED_TEST: PropertyHints = {
  runs: [
    {
      label: 'small machines',
      machines: ['tiny:2x2', 'tiny:4x4', 'tiny:1x3'],
      maxRanks: 16,
      maxBytes: 8192,
      numRuns: 25,
    },
    { label: 'presets', machines: ['dunnington', 'knl'], maxRanks: 64, maxBytes: 2048, numRuns: 4 },
  ],
  sizes: [99, 100, 101, 999, 1000, 1001, 1023, 1024, 1025, 2047, 2048, 2049, 3000, 8191, 8192, 8193],
};

export const collBaseAlgorithms: readonly Algorithm[] = testedWith(TUNED_TEST, [
  allgatherBruck,
  allgatherNeighborExchange,
  allgatherRecursiveDoubling,
  allgatherRing,
  allgatherTwoProcs,
  allreduceNonoverlapping,
  allreduceRecursiveDoubling,
  allreduceRing,
  alltoallBruck,
  alltoallLinear,
  alltoallPairwise,
  alltoallTwoProcs,
  barrierDissemination,
  barrierRecursiveDoubling,
  bcastBinary,
  bcastBinomial,
  bcastKnomial,
  bcastLinear,
  bcastPipeline,
  bcastSplitBinary,
  gatherBinomial,
  gatherLinearSync,
  gatherLinear,
  reduceBinary,
  reduceBinomial,
  reduceLinear,
  reducePipeline,
  scatterBinomial,
  scatterLinear,
  scatterLinearNb,
]);
