// The validation doc's paragraph on a CMA read whose target is in the kernel is built from the run's
// probe rows (one CMA reader, warm, its target polling or making system calls), beside the model;
// other probe rows are not taken for it.
import { describe, expect, it } from 'vitest';
import { targetInKernelText } from '../../native-validate/validation-doc.ts';
import type { Row } from '../../native-validate/validate.ts';
import { probeRow } from '../helpers/native-stats.ts';

const r = (name: string, bytes: number, measured: number, predicted: number, mechanism = 'cma'): Row =>
  probeRow(name, bytes, measured, predicted, mechanism);

const rows = [
  r('onetoall cma, warm, target polling', 4096, 2_700, 2_650),
  r('onetoall cma, warm, target in system calls', 4096, 3_500, 2_650),
  r('onetoall cma, warm, target polling', 65536, 6_200, 5_900),
  r('onetoall cma, warm, target in system calls', 65536, 6_000, 5_900),
  r('onetoall cma, cold, new pages', 65536, 101_000, 98_000),
];

describe('target-in-the-kernel paragraph', () => {
  it('is empty without both of its probe rows at a size', () => {
    expect(targetInKernelText(rows.slice(4))).toEqual([]);
    expect(targetInKernelText([rows[0], rows[2], rows[4]])).toEqual([]);
  });

  it('gives each size both ways and their difference, beside the one prediction', () => {
    const text = targetInKernelText(rows).join('\n');
    expect(text).toContain(
      '4 KiB: 2.70 us with its target polling, 3.50 us with it in system calls (+0.80 us); the model 2.65 us both ways.',
    );
    // A target in system calls that measured faster says so with its sign.
    expect(text).toContain('64 KiB: 6.20 us with its target polling, 6.00 us with it in system calls (-0.20 us)');
    expect(text).not.toContain('new pages');
  });
});
