// What an operation means, independent of any algorithm: which buffers each rank holds, what they
// start with, and what they must hold at the end. The harness and the property tests check every
// algorithm of an operation against the same expectations. `Args` is what setup builds and the
// algorithm's program receives (ArgsOf<operation>, operations.ts).
import type { Rank } from '../sim/node/rank-api.ts';
import type { ParamValue } from '../sim/node/params.ts';

export interface OperationCall {
  /** Message size in bytes (per rank or per block, as the operation defines it). */
  bytes: number;
  root: number;
  params: Record<string, ParamValue>;
  /** Per-rank counts for v-variants, when the point gives them. */
  counts?: number[];
}

export interface OperationSemantics<Args> {
  operation: string;
  /** Allocates the rank's buffers once per run; the result is what the algorithm program receives. */
  setup(rank: Rank, call: OperationCall): Args;
  /** Before every iteration: inputs hold fresh data, outputs nothing (same buffers, so caches
   *  warm up across iterations when the cache mode is on). */
  fill(rank: Rank, args: Args, call: OperationCall): void;
  /** Throws an Error describing the first difference if any rank's buffers are wrong. */
  verify(args: Args[], call: OperationCall): void;
  /** Whether the library returns from the call before any algorithm runs (a call that moves
   *  nothing: collectives/semantics/mpi-entry.ts); never when absent. */
  returnsAtOnce?: (args: Args) => boolean;
  /** Transfers one iteration carries, each reported as its share of the iteration's span: IMB's
   *  PingPong reports half a round trip. One when absent. */
  transfersPerCall?: number;
}
