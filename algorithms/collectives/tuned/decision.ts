// Open MPI's fixed decision rules (ompi/mca/coll/tuned/coll_tuned_decision_fixed.c, the rules of the
// v1.3 - v4.0 series, before v4.1 replaced them with per-size tables; read at
// github.com/KKraljic/ompi@6dc8855505bea3cd41874677239f9f80d842587b, a fork of the v4.0 line).
// They were fitted on the Grig cluster at UTK (MX, up to 64 nodes) and see only the message size
// and the communicator size: never where ranks run, which is how a NUMA node can mislead them.
// Sizes are in bytes; the datatype here is the byte, so MPI's element count equals `bytes`.
// Every operation here is commutative, so the non-commutative branches never apply.
import type { ParamValue } from '../../algorithm.ts';
import { isPow2 } from './common.ts';

export interface Choice {
  /** Registered name of the algorithm the rule picks. */
  algorithm: string;
  params: Record<string, ParamValue>;
}

const pick = (algorithm: string, params: Record<string, ParamValue> = {}): Choice => ({ algorithm, params });
const KiB = 1024;

/** ompi_coll_tuned_bcast_intra_dec_fixed. */
export function bcastDecision(bytes: number, n: number): Choice {
  const smallMessage = 2048;
  const intermediateMessage = 370728;
  // Fitted lines "communicator size < a * message size + b" [1/byte] for 128, 64 and 16 KiB pipelines.
  const aP128 = 1.6134e-6,
    bP128 = 2.1102;
  const aP64 = 2.3679e-6,
    bP64 = 1.1787;
  const aP16 = 3.2118e-6,
    bP16 = 8.7936;
  if (bytes < smallMessage || bytes <= 1) return pick('bcast:binomial', { segsize: 0 });
  if (bytes < intermediateMessage) return pick('bcast:split-binary', { segsize: 1 * KiB });
  if (n < aP128 * bytes + bP128) return pick('bcast:pipeline', { segsize: 128 * KiB });
  if (n < 13) return pick('bcast:split-binary', { segsize: 8 * KiB });
  if (n < aP64 * bytes + bP64) return pick('bcast:pipeline', { segsize: 64 * KiB });
  if (n < aP16 * bytes + bP16) return pick('bcast:pipeline', { segsize: 16 * KiB });
  return pick('bcast:pipeline', { segsize: 8 * KiB });
}

/** ompi_coll_tuned_reduce_intra_dec_fixed (commutative operations). */
export function reduceDecision(bytes: number, n: number): Choice {
  const a1 = 0.6016 / 1024,
    b1 = 1.3496;
  const a2 = 0.041 / 1024,
    b2 = 9.7128;
  const a3 = 0.0422 / 1024,
    b3 = 1.1614;
  const a4 = 0.0033 / 1024,
    b4 = 1.6761;
  if (n < 8 && bytes < 512) return pick('reduce:linear');
  if ((n < 8 && bytes < 20480) || bytes < 2048 || bytes <= 1) return pick('reduce:binomial', { segsize: 0 });
  if (n > a1 * bytes + b1) return pick('reduce:binomial', { segsize: 1 * KiB });
  if (n > a2 * bytes + b2) return pick('reduce:pipeline', { segsize: 1 * KiB });
  if (n > a3 * bytes + b3) return pick('reduce:binary', { segsize: 32 * KiB });
  if (n > a4 * bytes + b4) return pick('reduce:pipeline', { segsize: 32 * KiB });
  return pick('reduce:pipeline', { segsize: 64 * KiB });
}

/**
 * ompi_coll_tuned_allreduce_intra_dec_fixed. Above N MiB the rules pick the segmented ring (1 MiB
 * segments), which this library does not model separately: the plain ring stands in for it.
 */
export function allreduceDecision(bytes: number, n: number): Choice {
  const intermediateMessage = 10000;
  if (bytes < intermediateMessage) return pick('allreduce:recursive-doubling');
  if (bytes > n) return pick('allreduce:ring');
  return pick('allreduce:nonoverlapping');
}

/** ompi_coll_tuned_allgather_intra_dec_fixed; two processes: ompi_coll_tuned_allgather_intra_two_procs (1.3-4.0). */
export function allgatherDecision(bytes: number, n: number): Choice {
  if (n === 2) return pick('allgather:two-procs');
  const total = bytes * n;
  if (total < 50000) return pick(isPow2(n) ? 'allgather:recursive-doubling' : 'allgather:bruck');
  return pick(n % 2 !== 0 ? 'allgather:ring' : 'allgather:neighbor-exchange');
}

/**
 * ompi_coll_tuned_alltoall_intra_dec_fixed with the MCA defaults coll_tuned_alltoall_small_msg = 200
 * and coll_tuned_alltoall_intermediate_msg = 3000 (per-block bytes); two processes:
 * ompi_coll_tuned_alltoall_intra_two_procs (1.3-4.0), which swaps first and copies its own block after.
 */
export function alltoallDecision(bytes: number, n: number): Choice {
  if (n === 2) return pick('alltoall:two-procs');
  if (bytes < 200 && n > 12) return pick('alltoall:bruck');
  if (bytes < 3000) return pick('alltoall:linear');
  return pick('alltoall:pairwise');
}

/** ompi_coll_tuned_gather_intra_dec_fixed (per-rank block bytes). */
export function gatherDecision(bytes: number, n: number): Choice {
  if (bytes > 92160) return pick('gather:linear-sync', { segsize: 32 * KiB });
  if (bytes > 6000) return pick('gather:linear-sync', { segsize: 1 * KiB });
  if (n > 60 || (n > 10 && bytes < 1024)) return pick('gather:binomial');
  return pick('gather:linear');
}

/** ompi_coll_tuned_scatter_intra_dec_fixed (per-rank block bytes). */
export function scatterDecision(bytes: number, n: number): Choice {
  if (n > 10 && bytes < 300) return pick('scatter:binomial');
  return pick('scatter:linear');
}

/** ompi_coll_tuned_barrier_intra_dec_fixed; two processes: one swap, as recursive doubling does it. */
export function barrierDecision(n: number): Choice {
  return pick(isPow2(n) ? 'barrier:recursive-doubling' : 'barrier:dissemination');
}
