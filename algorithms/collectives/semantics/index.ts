// The semantics of every collective operation, by operation name.
import type { OperationSemantics } from '../../semantics.ts';
import type { CollectiveArgs } from '../args.ts';
import { allgatherSemantics, allgathervSemantics } from './allgather.ts';
import { alltoallSemantics, alltoallvSemantics } from './alltoall.ts';
import { barrierSemantics } from './barrier.ts';
import { bcastSemantics } from './bcast.ts';
import { gatherSemantics, gathervSemantics } from './gather.ts';
import { allreduceSemantics, reduceSemantics } from './reduce.ts';
import { scatterSemantics, scattervSemantics } from './scatter.ts';

export const collectiveSemantics: { [Op in keyof CollectiveArgs]: OperationSemantics<CollectiveArgs[Op]> } = {
  bcast: bcastSemantics,
  scatter: scatterSemantics,
  scatterv: scattervSemantics,
  gather: gatherSemantics,
  gatherv: gathervSemantics,
  alltoall: alltoallSemantics,
  alltoallv: alltoallvSemantics,
  allgather: allgatherSemantics,
  allgatherv: allgathervSemantics,
  reduce: reduceSemantics,
  allreduce: allreduceSemantics,
  barrier: barrierSemantics,
};
