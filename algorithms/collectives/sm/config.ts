// Parameters of the sm family, with Open MPI coll/sm's defaults (ompi/mca/coll/sm/coll_sm_component.c:
// fragment_size 8192, tree_degree 4, comm_num_segments 8).
import type { ParamInfo, ParamValue } from '../../algorithm.ts';
import { intParam } from '../params.ts';

export interface SmConfig {
  /** Bytes per fragment: the unit copied through a shared segment slot. */
  segsize: number;
  /** Children per tree node. */
  degree: number;
  /** Fragment slots in each rank's shared segment, reused round-robin. */
  slots: number;
}

export const SM_PARAMS: ParamInfo[] = [
  {
    name: 'segsize',
    kind: 'bytes',
    default: 8192,
    min: 1,
    description: 'fragment size copied through shared memory (coll_sm_fragment_size, default 8 KiB)',
  },
  {
    name: 'degree',
    kind: 'integer',
    default: 4,
    min: 1,
    description: 'fan-out of the rank-order tree (coll_sm_tree_degree, default 4)',
  },
  {
    name: 'slots',
    kind: 'integer',
    default: 8,
    min: 1,
    description:
      'fragment slots per rank segment before a writer waits for readers (coll_sm_comm_num_segments, default 8)',
  },
];

export const SM_BARRIER_PARAMS: ParamInfo[] = [SM_PARAMS[1]];

export function smConfig(params: Record<string, ParamValue>, algorithm: string): SmConfig {
  const [segsize, degree, slots] = SM_PARAMS.map((p) => intParam(params, p, algorithm));
  return { segsize, degree, slots };
}

export function smDegree(params: Record<string, ParamValue>, algorithm: string): number {
  return intParam(params, SM_PARAMS[1], algorithm);
}
