// Open MPI 4.1's fixed decision rules (ompi/mca/coll/tuned/coll_tuned_decision_fixed.c at tag
// v4.1.4 of github.com/open-mpi/ompi): per communicator size, a table of message sizes and the
// algorithm number each range picks, measured by the Open MPI developers and replacing the fitted
// lines of v1.3-v4.0 (decision.ts). Every algorithm runs unsegmented: the rules pass segment size 0
// and fan-in/out 0 to ..._intra_do_this. The tables are those of the source, entry for entry
// (a communicator-size bound, then [size bound, algorithm] pairs: the first pair whose bound the
// size is below). Sizes are the whole message for bcast and one block for the others, as the
// source's total_dsize is.
import type { ParamValue } from '../../algorithm.ts';
import type { Choice } from './decision.ts';
import { UnmodelledChoiceError } from '../../unmodelled.ts';

interface Row {
  below?: number;
  equals?: number;
  bySize: ReadonlyArray<readonly [number, number]>;
}

export type V41Operation = 'bcast' | 'gather' | 'scatter' | 'alltoall' | 'allgather';

// One row per line, as the source's if-chains read.
// prettier-ignore
const TABLES: Record<V41Operation, readonly Row[]> = {
  bcast: [
    { below: 4, bySize: [[32, 3], [256, 5], [512, 3], [1024, 7], [32768, 1], [131072, 5], [262144, 2], [524288, 1], [1048576, 6], [Infinity, 5]] },
    { below: 8, bySize: [[64, 5], [128, 6], [2048, 5], [8192, 6], [1048576, 1], [Infinity, 2]] },
    { below: 16, bySize: [[8, 7], [64, 5], [4096, 7], [16384, 5], [32768, 6], [Infinity, 1]] },
    { below: 32, bySize: [[4096, 7], [1048576, 6], [Infinity, 8]] },
    { below: 64, bySize: [[2048, 6], [Infinity, 7]] },
    { below: 128, bySize: [[Infinity, 7]] },
    { below: 256, bySize: [[2, 6], [16384, 5], [32768, 1], [65536, 5], [Infinity, 7]] },
    { below: 1024, bySize: [[16384, 7], [32768, 4], [Infinity, 7]] },
    { below: 2048, bySize: [[524288, 7], [Infinity, 8]] },
    { below: 4096, bySize: [[262144, 7], [Infinity, 8]] },
    { below: Infinity, bySize: [[8192, 7], [16384, 5], [262144, 7], [Infinity, 8]] },
  ],
  gather: [
    { below: 4, bySize: [[2, 3], [4, 1], [32768, 2], [65536, 1], [131072, 2], [Infinity, 3]] },
    { below: 8, bySize: [[1024, 2], [8192, 1], [32768, 2], [262144, 1], [Infinity, 3]] },
    { below: 256, bySize: [[Infinity, 2]] },
    { below: 512, bySize: [[2048, 2], [8192, 1], [Infinity, 2]] },
    { below: Infinity, bySize: [[Infinity, 2]] },
  ],
  scatter: [
    { below: 4, bySize: [[2, 3], [131072, 1], [262144, 3], [Infinity, 1]] },
    { below: 8, bySize: [[2048, 2], [4096, 1], [8192, 2], [32768, 1], [1048576, 3], [Infinity, 1]] },
    { below: 16, bySize: [[16384, 2], [1048576, 3], [Infinity, 1]] },
    { below: 32, bySize: [[16384, 2], [32768, 1], [Infinity, 3]] },
    { below: 64, bySize: [[512, 2], [8192, 3], [16384, 2], [Infinity, 3]] },
    { below: Infinity, bySize: [[512, 2], [Infinity, 3]] },
  ],
  alltoall: [
    { equals: 2, bySize: [[2, 2], [4, 5], [16, 2], [64, 5], [256, 2], [4096, 5], [32768, 2], [262144, 4], [1048576, 5], [Infinity, 2]] },
    { below: 8, bySize: [[8192, 4], [16384, 1], [65536, 4], [524288, 1], [1048576, 2], [Infinity, 1]] },
    { below: 16, bySize: [[262144, 4], [Infinity, 1]] },
    { below: 32, bySize: [[4, 4], [512, 3], [8192, 4], [32768, 1], [262144, 4], [524288, 1], [Infinity, 4]] },
    { below: 64, bySize: [[512, 3], [524288, 1], [Infinity, 4]] },
    { below: 128, bySize: [[1024, 3], [2048, 1], [4096, 4], [262144, 1], [Infinity, 2]] },
    { below: 256, bySize: [[1024, 3], [2048, 4], [262144, 1], [Infinity, 2]] },
    { below: 512, bySize: [[1024, 3], [8192, 4], [32768, 1], [Infinity, 2]] },
    { below: 1024, bySize: [[512, 3], [8192, 4], [16384, 1], [131072, 4], [262144, 1], [Infinity, 2]] },
    { below: 2048, bySize: [[512, 3], [1024, 4], [2048, 1], [16384, 4], [262144, 1], [Infinity, 4]] },
    { below: 4096, bySize: [[1024, 3], [4096, 4], [8192, 1], [131072, 4], [Infinity, 1]] },
    { below: Infinity, bySize: [[2048, 3], [8192, 4], [16384, 1], [32768, 4], [65536, 1], [Infinity, 4]] },
  ],
  allgather: [
    { equals: 2, bySize: [[Infinity, 6]] },
    { below: 32, bySize: [[Infinity, 3]] },
    { below: 64, bySize: [[1024, 3], [65536, 5], [Infinity, 4]] },
    { below: 128, bySize: [[512, 3], [65536, 5], [Infinity, 4]] },
    { below: 256, bySize: [[512, 3], [131072, 5], [524288, 4], [1048576, 5], [Infinity, 4]] },
    { below: 512, bySize: [[32, 3], [128, 2], [1024, 3], [131072, 5], [524288, 4], [1048576, 5], [Infinity, 4]] },
    { below: 1024, bySize: [[64, 3], [256, 2], [2048, 3], [Infinity, 5]] },
    { below: 2048, bySize: [[4, 3], [8, 2], [16, 3], [32, 2], [256, 3], [512, 2], [4096, 3], [Infinity, 5]] },
    { below: 4096, bySize: [[32, 2], [128, 3], [512, 2], [4096, 3], [Infinity, 5]] },
    { below: Infinity, bySize: [[2, 3], [8, 2], [16, 3], [512, 2], [4096, 3], [Infinity, 5]] },
  ],
};

const pick = (algorithm: string, params: Record<string, ParamValue> = {}): Choice => ({ algorithm, params });

/** Each algorithm number of the source's do_this switch as this library's algorithm and parameters
 *  (undefined: not modelled), for a block or message of `bytes`. */
const ALGORITHMS: Record<V41Operation, (bytes: number) => Record<number, Choice | undefined>> = {
  bcast: (bytes) => ({
    1: pick('bcast:linear'),
    // The chain with fan-out 0, which ompi_coll_base_topo_build_chain forces to 1, is the pipeline;
    // unsegmented, its one segment is the whole message.
    2: pick('bcast:pipeline', { segsize: Math.max(1, bytes) }),
    3: pick('bcast:pipeline', { segsize: Math.max(1, bytes) }),
    4: undefined,
    5: pick('bcast:binary', { segsize: 0 }),
    6: pick('bcast:binomial', { segsize: 0 }),
    7: pick('bcast:knomial', { segsize: 0, radix: 4 }),
    8: undefined,
  }),
  gather: (bytes) => ({
    1: pick('gather:linear'),
    2: pick('gather:binomial'),
    // First segment size 0: COLL_BASE_COMPUTED_SEGCOUNT leaves the first segment the whole block.
    3: pick('gather:linear-sync', { segsize: Math.max(1, bytes) }),
  }),
  scatter: () => ({
    1: pick('scatter:linear'),
    2: pick('scatter:binomial'),
    3: pick('scatter:linear-nb'),
  }),
  alltoall: () => ({
    1: pick('alltoall:linear'),
    2: pick('alltoall:pairwise'),
    3: pick('alltoall:bruck'),
    // linear_sync with coll_tuned_alltoall_algorithm_max_requests at its default 0 posts every
    // request at once, as basic_linear does, in the same order.
    4: pick('alltoall:linear'),
    5: pick('alltoall:two-procs'),
  }),
  allgather: () => ({
    2: pick('allgather:bruck'),
    3: pick('allgather:recursive-doubling'),
    4: pick('allgather:ring'),
    5: pick('allgather:neighbor-exchange'),
    6: pick('allgather:two-procs'),
  }),
};

/** The source's names of the algorithms not modelled, for the error. */
const UNMODELLED: Partial<Record<V41Operation, Record<number, string>>> = {
  bcast: { 4: 'split_binary_tree unsegmented', 8: 'scatter_allgather' },
};

/** The algorithm number Open MPI 4.1 picks for `bytes` on `n` ranks. */
export function v41Number(op: V41Operation, bytes: number, n: number): number {
  const row = TABLES[op].find((r) => (r.equals !== undefined ? n === r.equals : n < (r.below ?? Infinity)));
  const entry = row?.bySize.find(([bound]) => bytes < bound);
  if (entry === undefined) throw new Error(`${op}: no v4.1 rule for ${bytes} B on ${n} ranks`);
  return entry[1];
}

/** What Open MPI 4.1's rules run for `bytes` on `n` ranks, as this library's algorithm. */
export function v41Decision(op: V41Operation, bytes: number, n: number): Choice {
  const alg = v41Number(op, bytes, n);
  const choice = ALGORITHMS[op](bytes)[alg];
  if (choice === undefined) {
    const name = UNMODELLED[op]?.[alg] ?? `algorithm ${alg}`;
    throw new UnmodelledChoiceError(
      `${op}:tuned with rules v4.1: for ${bytes} B on ${n} ranks Open MPI 4.1 runs ${name}, which this library does not model`,
    );
  }
  return choice;
}
