// The validation doc's paragraph on how cold the cold buffers are is built from the run's probe
// rows: the native basic broadcast with its buffers in IMB's order and shuffled, beside the model.
// Open MPI's fragment probes, also probe rows, are not taken for it, nor it for them.
import { describe, expect, it } from 'vitest';
import { coldOrderText, fragmentProbeText } from '../../native-validate/validation-doc.ts';
import type { Row } from '../../native-validate/validate.ts';
import { probeRow } from '../helpers/native-stats.ts';

const r = (name: string, bytes: number, measured: number, predicted: number, mechanism = 'shm'): Row =>
  probeRow(name, bytes, measured, predicted, mechanism);

const rows = [
  r('bcast basic, sequential order', 2048, 550, 626),
  r('bcast basic, sequential order', 32768, 6_300, 4_710),
  r('bcast basic, shuffled order', 2048, 1_050, 626),
  r('bcast basic, shuffled order', 32768, 7_400, 4_710),
  r('MPI_bcast basic no-cma, default', 2 << 20, 253_000, 228_000, 'mpi shm'),
];

describe('cold order paragraph', () => {
  it('is empty without its probe rows', () => {
    expect(coldOrderText(rows.slice(4))).toEqual([]);
  });

  it('gives each size in both orders with the model', () => {
    const text = coldOrderText(rows).join('\n');
    expect(text).toContain('2 KiB: 0.55 us in order, 1.05 us shuffled; model 0.63 us.');
    expect(text).toContain('32 KiB: 6.30 us in order, 7.40 us shuffled; model 4.71 us.');
    expect(text).not.toContain('MPI_bcast');
  });

  it('says which sizes differ beyond the spread of their rounds, and only those', () => {
    const rounds = (row: Row, medians: number[]): Row => ({
      ...row,
      measured: { ...row.measured, medianNs: Math.min(...medians), roundMediansNs: medians },
    });
    const text = coldOrderText([
      rounds(rows[0], [550, 600, 580]),
      rounds(rows[1], [6_300, 7_100, 6_500]),
      rounds(rows[2], [1_050, 1_200, 1_100]),
      rounds(rows[3], [7_000, 7_400, 7_200]),
    ]).join('\n');
    expect(text).toContain(
      '2 KiB: 0.55 us in order (rounds 0.55 us-0.60 us), 1.05 us shuffled (rounds 1.05 us-1.20 us)',
    );
    expect(text).toContain('At 2 KiB the shuffled order is slower in every round.');
    expect(text).not.toContain('At 2 KiB and 32 KiB');
    const none = coldOrderText([rounds(rows[1], [6_300, 7_100]), rounds(rows[3], [7_000, 7_400])]).join('\n');
    expect(none).toContain('At no probed size do the two orders differ beyond the spread of their rounds.');
  });

  it('leaves the fragment probes their own paragraph', () => {
    const text = fragmentProbeText(rows).join('\n');
    expect(text).toContain('MPI_bcast of 2 MiB: default 253 us (model 228 us).');
    expect(text).not.toContain('sequential');
  });
});
