// The validation doc's paragraph on the kernel's first access to a page is built from the run's
// first-access probe rows (one CMA reader, cold, new pages or pages reached before), beside the model;
// other probe rows are not taken for it.
import { describe, expect, it } from 'vitest';
import { firstAccessText } from '../../native-validate/validation-doc.ts';
import type { Row } from '../../native-validate/validate.ts';
import { probeRow } from '../helpers/native-stats.ts';

const r = (name: string, bytes: number, measured: number, predicted: number, mechanism = 'cma'): Row =>
  probeRow(name, bytes, measured, predicted, mechanism);

const rows = [
  r('onetoall cma, cold, new pages', 65536, 101_000, 98_000),
  r('onetoall cma, cold, new pages', 1 << 20, 1_700_000, 1_650_000),
  r('onetoall cma, cold, pages reached before', 65536, 9_000, 8_000),
  r('onetoall cma, cold, pages reached before', 1 << 20, 180_000, 150_000),
  r('bcast basic, sequential order', 65536, 6_300, 4_710, 'shm'),
];

describe('first access paragraph', () => {
  it('is empty without both of its probe rows at a size', () => {
    expect(firstAccessText(rows.slice(4))).toEqual([]);
    expect(firstAccessText([rows[0], rows[1], rows[4]])).toEqual([]);
  });

  it('gives each size both ways, and the difference per page, measured and modelled', () => {
    const text = firstAccessText(rows).join('\n');
    // 64 KiB is 16 pages: (101 - 9) / 16 = 5.75 us measured, (98 - 8) / 16 = 5.63 us modelled.
    expect(text).toContain(
      '64 KiB: 101 us reaching new pages, 9 us reaching pages reached before, 5.75 us a page apart; the model 98 us and 8 us, 5.63 us a page.',
    );
    // 1 MiB is 256 pages: (1700 - 180) / 256 = 5.94 us, (1650 - 150) / 256 = 5.86 us.
    expect(text).toContain(
      '1 MiB: 1700 us reaching new pages, 180 us reaching pages reached before, 5.94 us a page apart',
    );
    expect(text).toContain('the model 1650 us and 150 us, 5.86 us a page.');
    expect(text).not.toContain('bcast basic');
  });
});
