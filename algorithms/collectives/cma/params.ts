// The parameter of the contention-aware CMA collectives: how many ranks may read (or write) one
// process's memory at once.
import type { ParamInfo, ParamValue } from '../../registry.ts';

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
  const value = params.concurrency ?? DEFAULT_CONCURRENCY;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new Error(`${algorithm}: params.concurrency must be a whole number, at least 1, got ${JSON.stringify(value)}`);
  }
  return value;
}
