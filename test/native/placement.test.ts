// The line trip measured right before and after each native case (src/measure.c), set against the
// start's: rows whose fastest round began or ended with it moved are marked, and the test set is
// summarised without them.
import { describe, expect, it } from 'vitest';
import { formatReport, placementMoved } from '../../native-validate/report.ts';
import { compareTrips, samePlacement } from '../../native-validate/host-check.ts';
import { fastestRound } from '../../native-validate/rounds.ts';
import { row } from '../../native-validate/validate.ts';
import { pingpongRow, reportOf, steadyStats } from '../helpers/native-stats.ts';

const testRow = (errorPct: number, tripNs?: number, tripBeforeNs?: number) =>
  pingpongRow(
    {
      ...steadyStats(2048, 1000),
      ...(tripNs === undefined ? {} : { tripNs }),
      ...(tripBeforeNs === undefined ? {} : { tripBeforeNs }),
    },
    1000 * (1 + errorPct / 100),
  );

const report = (rows: ReturnType<typeof testRow>[], startNs?: number) =>
  reportOf(rows, startNs === undefined ? {} : { hostCheck: compareTrips([0, 1], startNs, startNs) });

describe('the line trip beside each row', () => {
  it('moved means beyond the host check factor either way, unknown without both trips', () => {
    expect(placementMoved(testRow(0, 158), 31)).toBe(true);
    expect(placementMoved(testRow(0, 14), 31)).toBe(true);
    expect(placementMoved(testRow(0, 40), 31)).toBe(false);
    // A case that began placed apart and ended back (measured: 787 us against 227 predicted for a
    // 2 MiB double-copy ping-pong, the trip 159 ns before it and 31 ns after).
    expect(placementMoved(testRow(0, 31, 159), 31)).toBe(true);
    expect(placementMoved(testRow(0, 31, 33), 31)).toBe(false);
    expect(placementMoved(testRow(0), 31)).toBeUndefined();
    expect(placementMoved(testRow(0, 31), undefined)).toBeUndefined();
  });

  it('counts the moved test rows and summarises the test set without them', () => {
    // Measured on the development host: double-copy rows 3-4 times slower than predicted while the
    // trip was 160 ns, against 31 ns in training.
    const r = report([testRow(-70, 160), testRow(-68, 158), testRow(4, 31), testRow(-6, 33), testRow(12, 30)], 31);
    expect(r.summary.test.medianAbsErrorPct).toBe(12);
    expect(r.summary.placement).toEqual({
      moved: 2,
      other: 0,
      rest: { cases: 3, medianAbsErrorPct: 6, maxAbsErrorPct: 12 },
    });
    const text = formatReport(r);
    expect(text).toMatch(/ 160\.0\* /);
    expect(text).toMatch(/ 31\.0 /);
    expect(formatReport(report([testRow(-70, 31, 159)], 31))).toMatch(/ 159\.0\/31\.0\* /);
    expect(text).toMatch(
      /: 2 test rows; the test set without them: 3 cases, median \|error\| 6\.0%, max \|error\| 12\.0%/,
    );
  });

  it('says nothing of placement where no row or no start has a trip', () => {
    expect(report([testRow(5, 31)]).summary.placement).toBeUndefined();
    expect(report([testRow(5)], 31).summary.placement).toBeUndefined();
    expect(formatReport(report([testRow(5)], 31))).not.toMatch(/trip\(ns\): a cache line/);
  });

  it('a row chosen among placed rounds is marked exactly when none of its rounds was placed', () => {
    const inPlacement = samePlacement(31);
    const round = (medianNs: number, tripBeforeNs: number, tripNs: number) => ({
      ...steadyStats(2048, medianNs),
      tripBeforeNs,
      tripNs,
    });
    const placedLater = fastestRound([round(900, 160, 158), round(1000, 31, 32)], { inPlacement });
    const neverPlaced = fastestRound([round(900, 160, 158), round(1000, 31, 159)], { inPlacement });
    expect(placedLater.medianNs).toBe(1000);
    expect(neverPlaced.medianNs).toBe(900);
    const rows = [placedLater, neverPlaced].map((measured) => pingpongRow(measured, 1000));
    const training = row(
      {
        set: 'training',
        name: 'claims ring',
        mechanism: 'shm',
        ranks: 2,
        bytes: 65536,
        measured: round(7000, 160, 31),
      },
      7000,
    );
    const r = report([training, ...rows], 31);
    expect(rows.map((x) => placementMoved(x, 31))).toEqual([false, true]);
    expect(r.summary.placement?.moved).toBe(1);
    // The training row stands for the start: never marked.
    const text = formatReport(r);
    expect(text).toMatch(/ 160\.0\/31\.0 /);
    // Each row shows its chosen round's trips: the placed one, and the fastest of all, marked.
    expect(text).toMatch(/ 31\.0\/32\.0 /);
    expect(text).toMatch(/ 160\.0\/158\.0\* /);
  });
});
