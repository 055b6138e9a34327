// The validation doc's paragraph on a CMA read whose target is in the kernel is built from the run's
// probe rows (one CMA reader, warm, its target polling or making system calls); other probe rows
// are not taken for it, and it gives no model figure (the rows carry none).
import { describe, expect, it } from 'vitest';
import { targetInKernelText } from '../../native-validate/validation-doc.ts';
import type { Row } from '../../native-validate/validate.ts';
import { steadyStats } from '../helpers/native-stats.ts';

const r = (name: string, bytes: number, measured: number): Row => ({
  set: 'probe',
  name,
  mechanism: 'cma',
  ranks: 2,
  bytes,
  measured: steadyStats(bytes, measured, 5),
});

const rows = [
  r('onetoall cma, warm, target polling', 4096, 2_700),
  r('onetoall cma, warm, target in system calls', 4096, 3_500),
  r('onetoall cma, warm, target polling', 65536, 6_200),
  r('onetoall cma, warm, target in system calls', 65536, 6_000),
  r('onetoall cma, cold, new pages', 65536, 101_000),
];

describe('target-in-the-kernel paragraph', () => {
  it('is empty without both of its probe rows at a size', () => {
    expect(targetInKernelText(rows.slice(4))).toEqual([]);
    expect(targetInKernelText([rows[0], rows[2], rows[4]])).toEqual([]);
  });

  it('gives each size both ways and their difference, with its sign', () => {
    const text = targetInKernelText(rows).join('\n');
    expect(text).toContain('4 KiB: 2.70 us with its target polling, 3.50 us with it in system calls: +0.80 us.');
    expect(text).toContain('64 KiB: 6.20 us with its target polling, 6.00 us with it in system calls: -0.20 us.');
    expect(text).not.toContain('new pages');
    expect(text).toContain('no figure for these rows');
    expect(text).not.toContain('in each run');
  });

  it("gives each run's difference where the command ran more than once", () => {
    const second = [
      r('onetoall cma, warm, target polling', 4096, 2_600),
      r('onetoall cma, warm, target in system calls', 4096, 2_900),
    ];
    const text = targetInKernelText(rows, [rows, second, rows.slice(2)]).join('\n');
    // The second run measured 4 KiB only, the third 64 KiB only: each size lists the runs that
    // measured it both ways.
    expect(text).toContain('with it in system calls: +0.80 us (in each run of the command: +0.80 us, +0.30 us).');
    expect(text).toContain('with it in system calls: -0.20 us (in each run of the command: -0.20 us, -0.20 us).');
  });
});
