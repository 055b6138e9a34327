// What each collective's event program receives on every rank: MPI's arguments, with buffers as
// ranges. Sizes are in bytes (the datatype is bytes; reductions treat them element-wise).
// Buffers that MPI defines only at the root (gather's receive, scatter's send) are present on the
// root alone.
import type { Range, ReduceOp } from '../../sim/node/rank-api.ts';
import type { ParamValue } from '../../sim/node/params.ts';

interface Common {
  /** Algorithm parameters (segment size, fan-out...), already validated and defaulted. */
  params: Record<string, ParamValue>;
}

export interface BcastArgs extends Common {
  buffer: Range;
  bytes: number;
  root: number;
}
export interface ScatterArgs extends Common {
  send?: Range;
  recv: Range;
  bytes: number;
  root: number;
}
export interface ScattervArgs extends Common {
  send?: Range;
  counts: number[];
  displs: number[];
  recv: Range;
  root: number;
}
export interface GatherArgs extends Common {
  send: Range;
  recv?: Range;
  bytes: number;
  root: number;
}
export interface GathervArgs extends Common {
  send: Range;
  recv?: Range;
  counts: number[];
  displs: number[];
  root: number;
}
/** Block r of `send` goes to rank r; block r of `recv` comes from rank r. */
export interface AlltoallArgs extends Common {
  send: Range;
  recv: Range;
  bytes: number;
}
export interface AlltoallvArgs extends Common {
  send: Range;
  sendCounts: number[];
  sendDispls: number[];
  recv: Range;
  recvCounts: number[];
  recvDispls: number[];
}
export interface AllgatherArgs extends Common {
  send: Range;
  recv: Range;
  bytes: number;
}
export interface AllgathervArgs extends Common {
  send: Range;
  recv: Range;
  counts: number[];
  displs: number[];
}
export interface ReduceArgs extends Common {
  send: Range;
  recv?: Range;
  bytes: number;
  op: ReduceOp;
  root: number;
}
export interface AllreduceArgs extends Common {
  send: Range;
  recv: Range;
  bytes: number;
  op: ReduceOp;
}
export type BarrierArgs = Common;

/** Each collective operation's arguments, by operation name. */
export interface CollectiveArgs {
  bcast: BcastArgs;
  scatter: ScatterArgs;
  scatterv: ScattervArgs;
  gather: GatherArgs;
  gatherv: GathervArgs;
  alltoall: AlltoallArgs;
  alltoallv: AlltoallvArgs;
  allgather: AllgatherArgs;
  allgatherv: AllgathervArgs;
  reduce: ReduceArgs;
  allreduce: AllreduceArgs;
  barrier: BarrierArgs;
}
