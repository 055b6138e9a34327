// validate --mpi: the project's timing program built with mpicc runs each collective through the
// installed Open MPI with each collective component it has, CMA on and off; basic and tuned rows
// carry the simulator's prediction, han and xhc rows are measured only. Skipped without Open MPI.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { detectHost } from '../../hardware/sysfs.ts';
import { mpiRows } from '../../native-validate/mpi/run-mpi.ts';

const haveMpi = ['mpicc', 'mpirun', 'ompi_info'].every((t) => spawnSync('sh', ['-c', `command -v ${t}`]).status === 0);

describe.runIf(haveMpi)('validate --mpi', () => {
  it('runs every collective with every component, CMA on and off, beside the predictions', () => {
    const notes: string[] = [];
    const rows = mpiRows(detectHost(), {
      cores: [0, 1],
      sizes: [2048, 4096],
      iterations: 2,
      rounds: 1,
      // Cold buffers over twice 1 MiB: the test checks rows and notes, not coldness.
      llcBytes: 1 << 20,
      allowRunAsRoot: true,
      cma: true,
      progress: () => {},
      notes,
    });
    // First the training rows: Open MPI's library work per message's first fragment, fitted on a
    // 64-byte broadcast, then per ACK or later fragment, on an 8 KiB one (a rendezvous).
    const [training, follow, ...rest] = rows;
    const tests = rest.filter((r) => r.set !== 'probe');
    const probes = rest.filter((r) => r.set === 'probe');
    expect(training).toMatchObject({ set: 'training', name: 'MPI_bcast basic no-cma', bytes: 64 });
    expect(follow).toMatchObject({ set: 'training', name: 'MPI_bcast basic no-cma', bytes: 8192 });
    const note = notes.join('\n');
    expect(note).toMatch(/tuned rows use/);
    // Fitted, the model takes the measured time (to the rounding of the constant); where even no
    // library work leaves the model slower, the note says it was not fitted.
    for (const [param, r] of [
      ['smSideNs', training],
      ['smFollowSideNs', follow],
    ] as const) {
      const bytes = r.bytes;
      if (new RegExp(`${param}\\) fitted on MPI_bcast basic of ${bytes} B`).test(note))
        expect(Math.abs(r.errorPct!)).toBeLessThan(1);
      else expect(note).toMatch(new RegExp(`${param}\\) not fitted`));
    }
    const components = [...new Set(tests.map((r) => r.name.split(' ')[1]))];
    expect(components).toEqual(expect.arrayContaining(['basic', 'tuned']));
    // Each launch measures every collective at both sizes: rows come component by component, CMA
    // on then off, collective by collective, each at both sizes in turn.
    expect(tests).toHaveLength(components.length * 2 * 5 * 2);
    expect(tests.every((r) => r.set === 'test')).toBe(true);
    expect(tests.map((r) => r.bytes)).toEqual(tests.map((_, i) => (i % 2 === 0 ? 2048 : 4096)));
    expect(tests.slice(0, 4).map((r) => r.name)).toEqual([
      'MPI_bcast basic cma',
      'MPI_bcast basic cma',
      'MPI_scatter basic cma',
      'MPI_scatter basic cma',
    ]);
    for (const r of [training, follow, ...tests]) {
      expect(r.measured.medianNs).toBeGreaterThan(0);
      // The native line trip between the two cores right before and after the row's launch.
      expect(r.measured.tripBeforeNs).toBeGreaterThan(0);
      expect(r.measured.tripNs).toBeGreaterThan(0);
      const modelled = r.name.includes(' basic ') || r.name.includes(' tuned ');
      expect(r.predictedNs !== undefined).toBe(modelled);
    }
    // Last, the fragment probes: basic without CMA at the largest size, with the defaults, ob1's
    // depth raised, then raised with the fragments capped; the model predicts all but the last.
    expect(rest.slice(-probes.length)).toEqual(probes);
    expect(probes.map((r) => r.name)).toEqual([
      'MPI_bcast basic no-cma, default',
      'MPI_bcast basic no-cma, depth 64',
      'MPI_bcast basic no-cma, depth 64, 8 fragments',
      'MPI_alltoall basic no-cma, default',
      'MPI_alltoall basic no-cma, depth 64',
      'MPI_alltoall basic no-cma, depth 64, 8 fragments',
    ]);
    for (const r of probes) {
      expect(r.bytes).toBe(4096);
      expect(r.measured.medianNs).toBeGreaterThan(0);
      expect(r.predictedNs !== undefined).toBe(!r.name.endsWith('8 fragments'));
    }
    expect(rows.some((r) => r.name === 'MPI_alltoall tuned no-cma')).toBe(true);
    expect(notes.join('\n')).toMatch(/single_copy_mechanism/);
  }, 300_000);

  it.runIf(process.getuid?.() === 0)('refuses to run Open MPI as root without --allow-run-as-root', () => {
    const run = () =>
      mpiRows(detectHost(), {
        cores: [0, 1],
        sizes: [1],
        iterations: 1,
        rounds: 1,
        // Cold buffers over twice 1 MiB: the test checks rows and notes, not coldness.
        llcBytes: 1 << 20,
        allowRunAsRoot: false,
        cma: true,
        progress: () => {},
        notes: [],
      });
    expect(run).toThrow(/--allow-run-as-root/);
  });
});
