import type { NativeStats } from '../../native-validate/backend.ts';

/** A native measurement of `bytes` whose every statistic is `ns`, as if all samples agreed. */
export function steadyStats(bytes: number, ns: number, samples = 20): NativeStats {
  return { bytes, medianNs: ns, meanNs: ns, minNs: ns, maxNs: ns, q1Ns: ns, q3Ns: ns, samples };
}
