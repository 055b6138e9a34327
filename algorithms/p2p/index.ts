// The point-to-point benchmarks: their operations, semantics and algorithms.
// A new algorithm is one module exporting its definition and one line in `p2pAlgorithms`.
import type { Algorithm } from '../algorithm.ts';
import type { OperationInfo } from '../operations.ts';
import type { OperationSemantics } from '../semantics.ts';
import type { PointToPointArgs } from './args.ts';
import { alltoallpairsAlgorithms, alltoallpairsOperation, alltoallpairsSemantics } from './alltoall-pairs.ts';
import { knemcopyAlgorithms, knemcopyOperation, knemcopySemantics } from './knem-copy.ts';
import { onetoallAlgorithms, onetoallOperation, onetoallSemantics } from './onetoall.ts';
import { pingpingAlgorithms, pingpingOperation, pingpingSemantics } from './pingping.ts';
import { pingpongOperation, pingpongSemantics, pingpongShm } from './pingpong.ts';
import { pingpongTransportAlgorithms } from './pingpong-transports.ts';

export const p2pOperations: readonly OperationInfo[] = [
  pingpongOperation,
  pingpingOperation,
  onetoallOperation,
  alltoallpairsOperation,
  knemcopyOperation,
];

export const p2pSemantics: { [Op in keyof PointToPointArgs]: OperationSemantics<PointToPointArgs[Op]> } = {
  pingpong: pingpongSemantics,
  pingping: pingpingSemantics,
  onetoall: onetoallSemantics,
  alltoallpairs: alltoallpairsSemantics,
  knemcopy: knemcopySemantics,
};

export const p2pAlgorithms: readonly Algorithm[] = [
  pingpongShm,
  ...pingpongTransportAlgorithms,
  ...pingpingAlgorithms,
  ...onetoallAlgorithms,
  ...alltoallpairsAlgorithms,
  ...knemcopyAlgorithms,
];
