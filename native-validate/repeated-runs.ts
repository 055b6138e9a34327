// The same validation command run several times, one after the other, on one host. On a host shared
// with other work, one run's errors depend on what that work did during it (the last-level cache it
// left, the memory bandwidth it took), so whether the target is met is read over the runs, not from
// the one whose table the doc shows.
import type { FittedValue } from './fit/constants.ts';
import { placementMoved, placementTrip, TARGET, type Report } from './report.ts';

const pct = (x: number | null) => (x === null ? '-' : `${x} %`);

/** A run's fitted constant, the first whose field matches (none when the run calibrated nothing). */
function fittedValue(report: Report, field: RegExp): FittedValue['value'] | undefined {
  return report.fitted?.find((v) => field.test(v.field))?.value;
}

/** What the calibration of a run measured as the process's share of the last-level cache. */
function llcShare(report: Report): string {
  if (!report.fitted) return '-';
  const size = fittedValue(report, /^caches\[L\d+\]\.size$/);
  return size === undefined ? 'the whole cache' : `${Number((Number(size) / 2 ** 20).toFixed(2))} MiB`;
}

/** A fitted constant of a run with its unit, or '-' when the run did not fit it. */
function fitted(report: Report, field: RegExp, unit: string): string {
  const value = fittedValue(report, field);
  return value === undefined ? '-' : `${value} ${unit}`;
}

/** The training row `name`'s measured median, in us. */
function trainingUs(report: Report, name: string): string {
  const r = report.rows.find((x) => x.set === 'training' && x.name === name);
  return r ? `${Number((r.measured.medianNs / 1000).toFixed(2))} us` : '-';
}

/** How many test rows ran in the host's other placement and in neither placement the model has, of
 *  those whose trip was measured; '-' for a count a report does not have (one written before the
 *  other placement was modelled has no count of its rows). */
function placementCounts(report: Report): [string, string] {
  const p = report.summary.placement;
  if (!p) return ['-', '-'];
  const startNs = placementTrip(report);
  const measured = report.rows.filter((r) => r.set === 'test' && placementMoved(r, startNs) !== undefined).length;
  return [p.other === undefined ? '-' : `${p.other} of ${measured}`, `${p.moved} of ${measured}`];
}

/** The test set's median and maximum error without the rows that ran with the trip moved. */
function placementRestText(report: Report): string {
  const p = report.summary.placement;
  return p ? `${pct(p.rest.medianAbsErrorPct)}, ${pct(p.rest.maxAbsErrorPct)}` : '-';
}

/** How many of the runs met the target (runs without test cases count as not meeting it). */
export function runsMeetingTarget(reports: readonly Report[]): number {
  return reports.filter((r) => r.summary.test.targetMet === true).length;
}

/** The doc's section on the runs: one line per run, then how many met the target. */
export function repeatedRunsText(reports: readonly Report[]): string[] {
  if (reports.length < 2) return [];
  const met = runsMeetingTarget(reports);
  const mechanisms = [...new Set(reports.flatMap((r) => Object.keys(r.summary.byMechanism)))].sort();
  const header = [
    'run',
    'load at start',
    'last-level cache fitted',
    'line trip fitted',
    'claims ring',
    'median abs. error',
    'max abs. error',
    'host check',
    'rows in the other placement',
    'rows in neither placement',
    'median, max without them',
  ];
  const lines = [
    '## The same command, run after run',
    '',
    `The command ran ${reports.length} times, one run after the other; the tables above are the first run's.`,
    `Each run calibrates anew, so each fits the host as it was during that run. The target (median at most`,
    `${TARGET.medianPct} %, maximum at most ${TARGET.maxPct} % on the test set) was met in ${met} of the ${reports.length} runs.`,
    "The training's line trip between the two cores and its claims ring (its fastest rounds) show the placement",
    'the constants were fitted in: a run whose training caught its two virtual CPUs sharing one core (a trip',
    'of half the usual or less, a ring several times faster) describes a machine its test rows were mostly',
    'not run on. The trip is also measured right before and after each native case and Open MPI launch (the',
    '`trip(ns)` column of the tables above); each row is its fastest round among those placed as in training,',
    "else among those in the host's other placement (predicted on that machine); the rows of the other",
    'placement, those in neither, and the test set without the latter are counted per run.',
    '',
    `| ${[...header, ...mechanisms.map((m) => `${m} median`), 'target'].join(' | ')} |`,
    `| ${[...header, ...mechanisms, 'target'].map(() => '---').join(' | ')} |`,
  ];
  reports.forEach((r, i) => {
    const s = r.summary.test;
    const cells = [
      String(i + 1),
      r.load.start.split(' ')[0],
      llcShare(r),
      // The line trip is fitted on the innermost cache the two cores share (L3 here, L2 elsewhere),
      // or on their NUMA node where they share none.
      fitted(r, /^(caches\[L\d+\]|numaNodes\[\d+\])\.peerLatencyNs$/, 'ns'),
      trainingUs(r, 'claims ring'),
      pct(s.medianAbsErrorPct),
      pct(s.maxAbsErrorPct),
      r.hostCheck ? (r.hostCheck.changed ? 'changed' : 'same') : '-',
      ...placementCounts(r),
      placementRestText(r),
      ...mechanisms.map((m) => pct(r.summary.byMechanism[m]?.medianAbsErrorPct ?? null)),
      s.targetMet ? 'met' : 'not met',
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  });
  lines.push('');
  return lines;
}
