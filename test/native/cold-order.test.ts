// The validation doc's paragraph on how cold the cold buffers are is built from the run's probe
// rows: the native basic broadcast with its buffers in IMB's order and shuffled, beside the model.
// Open MPI's fragment probes, also probe rows, are not taken for it, nor it for them.
import { describe, expect, it } from 'vitest';
import { coldOrderText, fragmentProbeText } from '../../native-validate/validation-doc.ts';
import type { Row } from '../../native-validate/validate.ts';
import { steadyStats } from '../helpers/native-stats.ts';

const r = (name: string, bytes: number, measured: number, predicted: number, mechanism = 'shm'): Row => ({
  set: 'probe',
  name,
  mechanism,
  ranks: 2,
  bytes,
  measured: steadyStats(bytes, measured, 5),
  predictedNs: predicted,
});

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
    expect(text).toContain('2 KiB: 0.55 us one after another, 1.05 us shuffled, model 0.63 us');
    expect(text).toContain('32 KiB: 6.30 us one after another, 7.40 us shuffled, model 4.71 us');
    expect(text).not.toContain('MPI_bcast');
  });

  it('leaves the fragment probes their own paragraph', () => {
    const text = fragmentProbeText(rows).join('\n');
    expect(text).toContain('MPI_bcast of 2 MiB: default 253 us (model 228 us).');
    expect(text).not.toContain('sequential');
  });
});
