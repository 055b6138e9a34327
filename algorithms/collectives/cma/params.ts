// The parameter of the contention-aware CMA collectives: how many ranks may read (or write) one
// process's memory at once.
import type { ParamInfo, ParamValue } from '../../algorithm.ts';
import { wholeParam } from '../params.ts';

/**
 * A starting point, not a measured optimum: Hashmi et al. (seed 001) show one-to-all CMA reads
 * losing scalability as concurrent readers of one process grow (lock contention at process level),
 * without naming a best fan-out; sweep `concurrency` on the machine at hand to tune it.
 */
export const DEFAULT_CONCURRENCY = 4;

export const concurrencyParam: ParamInfo = {
  name: 'concurrency',
  kind: 'integer',
  default: DEFAULT_CONCURRENCY,
  min: 1,
  description: 'most ranks reading or writing one process at a time (each queues on its page-table lock)',
};

/** `params.concurrency`, its default when absent; an Error naming the field when it is not a count. */
export function concurrencyOf(algorithm: string, params: Record<string, ParamValue>): number {
  return wholeParam(params, concurrencyParam, algorithm);
}

/** How a design bounds the ranks at one process, from the call's parameters. */
export type Concurrency = (params: Record<string, ParamValue>) => number;

/** The linear designs: every rank at once. */
export const linear: Concurrency = () => Infinity;

/** The staggered designs: `params.concurrency` ranks at a time. */
export const staggered =
  (algorithm: string): Concurrency =>
  (params) =>
    concurrencyOf(algorithm, params);
