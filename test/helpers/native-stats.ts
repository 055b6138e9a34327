import type { NativeStats } from '../../native-validate/backend.ts';
import { buildReport, type Report } from '../../native-validate/report.ts';
import type { RoundedStats } from '../../native-validate/rounds.ts';
import { row, type Row } from '../../native-validate/validate.ts';

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

/** A test row of a 2 KiB double-copy ping-pong between two ranks, measured and predicted so. */
export function pingpongRow(measured: RoundedStats, predictedNs: number): Row {
  return row({ set: 'test', name: 'pingpong shm', mechanism: 'shm', ranks: 2, bytes: 2048, measured }, predictedNs);
}

/** The report of `rows` from a two-core host, whatever else it says fixed, and `extra` added. */
export function reportOf(rows: Row[], extra: Partial<Omit<Report, 'summary' | 'rows'>> = {}): Report {
  return buildReport({
    host: { name: 'h', description: 'd', via: 'sysfs', kernel: '6', cores: [0, 1] },
    load: { start: '1 1 1', end: '1 1 1' },
    command: 'intranode validate',
    machine: 'calibrated',
    native: { iterations: 20, rounds: 3, warmup: 2, cache: 'cold' },
    notes: [],
    ...extra,
    rows,
  });
}
