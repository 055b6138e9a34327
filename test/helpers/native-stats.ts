import type { NativeStats } from '../../native-validate/backend.ts';
import type { Row } from '../../native-validate/validate.ts';

/** A native measurement of `bytes` whose every statistic is `ns`, as if all samples agreed. */
export function steadyStats(bytes: number, ns: number, samples = 20): NativeStats {
  return { bytes, medianNs: ns, meanNs: ns, minNs: ns, maxNs: ns, q1Ns: ns, q3Ns: ns, samples };
}

/** A probe row of two ranks whose measurement is `measured` ns in every sample (steadyStats). */
export function probeRow(name: string, bytes: number, measured: number, predicted: number, mechanism: string): Row {
  return {
    set: 'probe',
    name,
    mechanism,
    ranks: 2,
    bytes,
    measured: steadyStats(bytes, measured, 5),
    predictedNs: predicted,
  };
}
