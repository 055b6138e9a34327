// The validation doc's paragraph on sending and receiving at once is built from the run's test rows:
// each pair's ratio of both ways to one way, measured and predicted, at every size both rows have.
// Nothing in it is typed by hand.
import { describe, expect, it } from 'vitest';
import { bothWaysText } from '../../native-validate/validation-doc.ts';
import type { Row } from '../../native-validate/validate.ts';
import { steadyStats } from '../helpers/native-stats.ts';

const r = (name: string, bytes: number, measured: number, predicted?: number, set: Row['set'] = 'test'): Row => ({
  set,
  name,
  mechanism: 'shm',
  ranks: 2,
  bytes,
  measured: steadyStats(bytes, measured, 5),
  ...(predicted === undefined ? {} : { predictedNs: predicted }),
});

describe('both-ways paragraph', () => {
  it('is empty without a pair of rows at one size', () => {
    expect(bothWaysText([r('pingpong shm', 2048, 700, 650), r('pingping shm', 4096, 800, 700)])).toEqual([]);
  });

  it("gives each pair's ratio on the host and in the model, size by size", () => {
    const text = bothWaysText([
      r('pingpong shm', 32768, 6000, 5000),
      r('pingping shm', 32768, 7200, 5100),
      r('MPI_bcast basic no-cma', 524288, 68_000, 61_000),
      r('MPI_alltoall basic no-cma', 524288, 190_000, 125_000),
      r('MPI_alltoall basic no-cma', 2048, 1900, 1400),
    ]).join('\n');
    expect(text).toContain('ping-ping over ping-pong: 32 KiB 1.20 (model 1.02).');
    expect(text).toContain('over a broadcast: 512 KiB 2.79 (model 2.05).');
    // Each pair by its own rows: the CMA pairs have none here.
    expect(text).not.toContain('native CMA');
    expect(text).not.toContain('with CMA');
    // The all-to-all at 2 KiB has no broadcast beside it.
    expect(text).not.toMatch(/(^|[^0-9])2 KiB/);
  });

  it('gives the CMA pairs from their own rows', () => {
    const text = bothWaysText([
      r('pingpong cma', 2048, 10_000, 9000),
      r('pingping cma', 2048, 13_000, 9100),
      r('MPI_bcast basic cma', 2048, 1000, 900),
      r('MPI_alltoall basic cma', 2048, 1600, 1700),
    ]).join('\n');
    expect(text).toContain(
      'native CMA, ping-ping over ping-pong (each rank reads the other at once): 2 KiB 1.30 (model 1.01).',
    );
    expect(text).toContain('Open MPI with CMA, the same all-to-all over the same broadcast: 2 KiB 1.60 (model 1.89).');
    expect(text).not.toContain('double copy');
  });

  it('leaves out rows that are not test rows, and says "-" where the model has no figure', () => {
    const text = bothWaysText([
      r('pingpong shm', 2048, 700),
      r('pingping shm', 2048, 800, 700),
      r('pingping shm', 32768, 900, 800, 'probe'),
      r('pingpong shm', 32768, 800, 700, 'probe'),
    ]).join('\n');
    expect(text).toContain('2 KiB 1.14 (model -).');
    expect(text).not.toContain('32 KiB');
  });
});
