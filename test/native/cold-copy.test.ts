// The validation doc's paragraph on cold single copies is built from the run's rows: the native CMA
// test rows of a page or more, each one's time beyond the model per 4 KiB page, beside how close the
// warm CMA training sweep came. Rows smaller than a page, rows the model does not predict and other
// mechanisms' rows are not taken.
import { describe, expect, it } from 'vitest';
import { coldCopyText } from '../../native-validate/validation-doc.ts';
import { row, type Row } from '../../native-validate/validate.ts';
import { steadyStats } from '../helpers/native-stats.ts';

const r = (set: Row['set'], mechanism: string, bytes: number, measured: number, predicted?: number): Row =>
  row(
    { set, name: `x ${mechanism}`, mechanism, ranks: 2, bytes, measured: steadyStats(bytes, measured, 5) },
    predicted,
  );

const training = [r('training', 'cma', 4096, 2_000, 2_200), r('training', 'cma', 65536, 10_000, 9_000)];
const tests = [
  r('test', 'cma', 32768, 50_000, 6_000), // 8 pages, 5.5 us each beyond the model
  r('test', 'cma', 524288, 800_000, 67_200), // 128 pages, 5.725 us each
  r('test', 'cma', 4096, 9_000, 3_000), // 1 page, 6 us
  r('test', 'cma', 2048, 9_000, 2_000), // under a page: not taken
  r('test', 'cma', 8192, 9_000), // not predicted: not taken
  r('test', 'shm', 32768, 90_000, 6_000), // another mechanism: not taken
];

describe('cold single copies paragraph', () => {
  it('is empty without cold CMA test rows or a warm CMA training sweep', () => {
    expect(coldCopyText(training)).toEqual([]);
    expect(coldCopyText(tests)).toEqual([]);
  });

  it("gives the median excess per page over the rows taken, their range, and the warm sweep's error", () => {
    const text = coldCopyText([...training, ...tests]).join('\n');
    expect(text).toContain('the host takes 5.72 us per');
    expect(text).toContain('(median of 3 rows; from 5.50 us to');
    expect(text).toContain('6.00 us), where the warm CMA training sweep');
    // |+10 %| and |-10 %|: the median of the two.
    expect(text).toContain('is predicted within 10.0 %');
  });
});
