// The validation doc's paragraph on Open MPI's fragments is built from the run's rows: each probed
// operation's test row at the probes' size beside its probe rows, measured and, where the model can
// say it, predicted. Nothing in it is typed by hand.
import { describe, expect, it } from 'vitest';
import { fragmentProbeText } from '../../native-validate/validation-doc.ts';
import type { Row } from '../../native-validate/validate.ts';
import { steadyStats } from '../helpers/native-stats.ts';

const r = (set: Row['set'], name: string, measured: number, predicted?: number): Row => ({
  set,
  name,
  mechanism: 'mpi shm',
  ranks: 2,
  bytes: 2 << 20,
  measured: steadyStats(2 << 20, measured, 5),
  ...(predicted === undefined ? {} : { predictedNs: predicted }),
});

describe('fragment probe paragraph', () => {
  it('is empty without probe rows', () => {
    expect(fragmentProbeText([r('test', 'MPI_bcast basic no-cma', 250_000, 228_000)])).toEqual([]);
  });

  it("lists each operation's probes in order, with the model's figure where it has one", () => {
    const text = fragmentProbeText([
      r('test', 'MPI_bcast basic no-cma', 999_000, 999_000),
      r('probe', 'MPI_bcast basic no-cma, default', 253_000, 228_000),
      r('probe', 'MPI_bcast basic no-cma, depth 64', 189_000, 230_000),
      r('probe', 'MPI_bcast basic no-cma, depth 64, 8 fragments', 255_000),
      r('probe', 'MPI_alltoall basic no-cma, default', 770_000, 504_000),
      r('probe', 'MPI_alltoall basic no-cma, depth 64', 500_000, 505_000),
      r('probe', 'MPI_alltoall basic no-cma, depth 64, 8 fragments', 600_000),
    ]).join('\n');
    expect(text).toContain(
      'MPI_bcast of 2 MiB: default 253 us (model 228 us); depth 64 189 us (model 230 us); depth 64, 8 fragments 255 us.',
    );
    expect(text).toContain(
      'MPI_alltoall of 2 MiB: default 770 us (model 504 us); depth 64 500 us (model 505 us); depth 64, 8 fragments 600 us.',
    );
    // The test row of the same case is not among them: the probes carry their own defaults.
    expect(text).not.toContain('999');
  });

  it('names sizes that are not whole MiB in their own unit', () => {
    const probe = { ...r('probe', 'MPI_bcast basic no-cma, default', 4_000, 3_000), bytes: 4096 };
    expect(fragmentProbeText([probe]).join('\n')).toContain('MPI_bcast of 4 KiB: default 4 us (model 3 us).');
  });
});
