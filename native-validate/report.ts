// The validation report: one row per case and size (measured median with its interquartile range,
// prediction, error), training and test marked, then the error summary per set and per mechanism
// against the target (median |error| at most 10 %, maximum at most 25 % on the test set).
import type { FittedValue } from './fit/constants.ts';
import type { Row } from './validate.ts';
import { CHANGE_FACTOR, samePlacement, type HostCheck } from './host-check.ts';

export const TARGET = { medianPct: 10, maxPct: 25 };

export interface ErrorSummary {
  cases: number;
  medianAbsErrorPct: number | null;
  maxAbsErrorPct: number | null;
}

export function summarise(rows: Row[]): ErrorSummary {
  const errors = rows.flatMap((r) => (r.errorPct === undefined ? [] : [Math.abs(r.errorPct)])).sort((a, b) => a - b);
  if (errors.length === 0) return { cases: 0, medianAbsErrorPct: null, maxAbsErrorPct: null };
  const mid = errors.length / 2;
  const median = errors.length % 2 ? errors[Math.floor(mid)] : (errors[mid - 1] + errors[mid]) / 2;
  return { cases: errors.length, medianAbsErrorPct: round(median), maxAbsErrorPct: round(errors[errors.length - 1]) };
}

function round(x: number): number {
  return Math.round(x * 10) / 10;
}

export interface Report {
  host: { name: string; description: string; via: string; kernel: string; cores: number[] };
  /** /proc/loadavg's 1, 5 and 15 minute figures when the run began and ended: other work on the host. */
  load: { start: string; end: string };
  /** The command that produced it. */
  command: string;
  /** Constants fitted in this run (absent with --machine FILE), and those left as they were. */
  fitted?: FittedValue[];
  unfitted?: string[];
  machine: string;
  native: { iterations: number; rounds?: number; warmup: number; cache: string };
  notes: string[];
  /** The line trip of the run's start measured again after the test cases (host-check.ts). */
  hostCheck?: HostCheck;
  /** The line trip between the two cores in the placement the machine describes (ns): the
   *  training's when the run calibrated, the machine's own otherwise. Absent in reports written
   *  before it was kept: the host check's start then stands for it. */
  placementNs?: number;
  /** The host's other placement of the two cores, on whose machine the rows that ran only there
   *  are predicted (placements.ts): the line trip the model gives there, and what it is. */
  otherPlacement?: { tripNs: number; description: string };
  rows: Row[];
  summary: {
    test: ErrorSummary & { targetMet: boolean | null };
    training: ErrorSummary;
    byMechanism: Record<string, ErrorSummary>;
    /** Where the rows' line trips can be set against the start's (hostCheck): how many test rows
     *  took a round of the host's other placement (none ran in the fitted one; predicted on the
     *  other's machine), how many ran in neither placement in every round, and the test set
     *  without the latter. */
    placement?: { moved: number; other?: number; rest: ErrorSummary };
  };
}

/** Whether `row`'s chosen round began or ended with the two cores' line trip moved by more than
 *  CHANGE_FACTOR from `startNs`, the machine's placement's (placementTrip), and was not in the
 *  host's other placement either (no round of it ran in a placement the model has: rounds.ts,
 *  placements.ts); undefined where both trips, or `startNs`, are unknown. */
export function placementMoved(row: Row, startNs: number | undefined): boolean | undefined {
  const { tripBeforeNs, tripNs } = row.measured;
  if ((tripBeforeNs === undefined && tripNs === undefined) || startNs === undefined) return undefined;
  return row.measured.placement !== 'other' && !samePlacement(startNs)(row.measured);
}

/** The line trip of the placement the machine describes, which rows are judged against. */
export function placementTrip(r: Pick<Report, 'placementNs' | 'hostCheck'>): number | undefined {
  return r.placementNs ?? r.hostCheck?.startNs;
}

export function buildReport(base: Omit<Report, 'summary'>): Report {
  const test = base.rows.filter((r) => r.set === 'test');
  const t = summarise(test);
  const byMechanism: Record<string, ErrorSummary> = {};
  for (const m of [...new Set(test.map((r) => r.mechanism))].sort())
    byMechanism[m] = summarise(test.filter((r) => r.mechanism === m));
  const targetMet =
    t.medianAbsErrorPct === null
      ? null
      : t.medianAbsErrorPct <= TARGET.medianPct && (t.maxAbsErrorPct ?? 0) <= TARGET.maxPct;
  const startNs = placementTrip(base);
  const moved = test.map((r) => placementMoved(r, startNs));
  const placement = moved.every((m) => m === undefined)
    ? undefined
    : {
        moved: moved.filter((m) => m === true).length,
        other: test.filter((r) => r.measured.placement === 'other').length,
        rest: summarise(test.filter((_, i) => moved[i] !== true)),
      };
  return {
    ...base,
    summary: {
      test: { ...t, targetMet },
      training: summarise(base.rows.filter((r) => r.set === 'training')),
      byMechanism,
      ...(placement ? { placement } : {}),
    },
  };
}

const us = (ns: number) => (ns / 1000).toFixed(ns < 10_000 ? 3 : ns < 1_000_000 ? 1 : 0);
const pct = (x: number | null) => (x === null ? '-' : `${x.toFixed(1)}%`);

/** The lowest and highest round medians of a row measured in rounds, `-` otherwise. */
function roundsText(medians: number[] | undefined): string {
  return medians === undefined ? '-' : `${us(Math.min(...medians))}-${us(Math.max(...medians))}`;
}

export function formatReport(r: Report): string {
  const out: string[] = [];
  out.push(`# Host: ${r.host.name}: ${r.host.description} (detected via ${r.host.via}), kernel ${r.host.kernel}`);
  out.push(`# Cores used: ${r.host.cores.join(', ')}`);
  out.push(`# Load average (1, 5, 15 min): ${r.load.start} when the run began, ${r.load.end} when it ended`);
  out.push(`# Machine: ${r.machine}`);
  const rounds =
    (r.native.rounds ?? 1) > 1
      ? `; test cases in ${r.native.rounds} rounds, each row its fastest round among those that began and ended with the cores placed as the machine describes (${r.otherPlacement ? "where none did, among those in the host's other placement, ~; else its fastest round, *" : 'its fastest round where none did, *'})`
      : '';
  out.push(
    `# Native: median of ${r.native.iterations} iterations after ${r.native.warmup} warm-up${rounds}; ${r.native.cache}`,
  );
  for (const n of r.notes) out.push(`# ${n}`);
  const startNs = placementTrip(r);
  const trip = (row: Row) => {
    const { tripBeforeNs: before, tripNs: after } = row.measured;
    if (after === undefined) return '-';
    const both = before === undefined ? after.toFixed(1) : `${before.toFixed(1)}/${after.toFixed(1)}`;
    // Training rows stand for the start: a training row is marked only where it was fitted on the
    // other placement's machine (Open MPI's library work).
    if (row.measured.placement === 'other') return `${both}~`;
    return `${both}${row.set !== 'training' && placementMoved(row, startNs) ? '*' : ''}`;
  };
  const header = [
    'set',
    'case',
    'ranks',
    'bytes',
    'measured(us)',
    'IQR(us)',
    'rounds(us)',
    'trip(ns)',
    'predicted(us)',
    'error',
  ];
  const table = r.rows.map((row) => [
    row.set,
    row.name,
    String(row.ranks),
    String(row.bytes),
    us(row.measured.medianNs),
    `${us(row.measured.q1Ns)}-${us(row.measured.q3Ns)}`,
    roundsText(row.measured.roundMediansNs),
    trip(row),
    row.predictedNs === undefined ? '-' : us(row.predictedNs),
    row.errorPct === undefined ? '-' : `${row.errorPct >= 0 ? '+' : ''}${row.errorPct.toFixed(1)}%`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((t) => t[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i])))
      .join('  ')
      .trimEnd();
  out.push(line(header), ...table.map(line));
  const s = r.summary;
  out.push(
    `# Test set: ${s.test.cases} cases, median |error| ${pct(s.test.medianAbsErrorPct)}, max |error| ${pct(s.test.maxAbsErrorPct)} (target: median <= ${TARGET.medianPct}%, max <= ${TARGET.maxPct}%): ${s.test.targetMet === null ? 'no cases' : s.test.targetMet ? 'met' : 'NOT met'}`,
  );
  for (const [m, e] of Object.entries(s.byMechanism))
    out.push(
      `#   ${m}: ${e.cases} cases, median |error| ${pct(e.medianAbsErrorPct)}, max |error| ${pct(e.maxAbsErrorPct)}`,
    );
  if (s.placement && startNs !== undefined) {
    const other = r.otherPlacement;
    const moved = `moved by more than a factor ${CHANGE_FACTOR} from the ${startNs.toFixed(1)} ns of the placement the machine describes`;
    out.push(
      `# trip(ns): a cache line's one-way trip between the first two cores right before and right after the row's round; ` +
        (other && s.placement.other !== undefined
          ? `~ where a trip ${moved} in every round and the chosen round's trips were both nearer, as a ratio, to the ${other.tripNs.toFixed(1)} ns the model gives in the host's other placement (${other.description}), on whose machine the row is predicted, the fitted constants otherwise: ${s.placement.other} test rows; `
          : '') +
        `* where a trip ${moved} in every round${other ? ' and the row is in neither placement' : ''} (the host ran the case with its cores placed otherwise than the model describes): ${s.placement.moved} test rows; the test set without them: ${s.placement.rest.cases} cases, median |error| ${pct(s.placement.rest.medianAbsErrorPct)}, max |error| ${pct(s.placement.rest.maxAbsErrorPct)}`,
    );
  }
  out.push(
    `# Training set (fitted on; not evidence of accuracy): ${s.training.cases} cases, median |error| ${pct(s.training.medianAbsErrorPct)}, max |error| ${pct(s.training.maxAbsErrorPct)}`,
  );
  return out.join('\n') + '\n';
}

/** Which mechanism's model errs most on the test set, for the report's conclusion. */
export function worstMechanism(r: Report): { mechanism: string; summary: ErrorSummary } | undefined {
  let worst: { mechanism: string; summary: ErrorSummary } | undefined;
  for (const [mechanism, summary] of Object.entries(r.summary.byMechanism))
    if (!worst || (summary.medianAbsErrorPct ?? 0) > (worst.summary.medianAbsErrorPct ?? 0))
      worst = { mechanism, summary };
  return worst;
}
