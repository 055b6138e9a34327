// What a call's time is (docs/scenario-format.md, "Arrival skew"): without skew, from the common start
// to the last rank's return; events no rank waits for that are still queued then (a notice in
// flight) do not count. Checked against the trace: the last step of any rank ends at the last return
// in these runs, where every rank's call ends with a step of its own.
import { describe, expect, it } from 'vitest';
import { runAlgorithm } from '../../algorithms/harness/simulate.ts';
import { loadPreset } from '../../hardware/presets.ts';
import { collectiveSemantics } from '../../algorithms/collectives/semantics/index.ts';

describe("a call's time", () => {
  for (const algorithm of ['bcast:basic', 'bcast:binomial', 'gather:basic']) {
    it(`is the last rank's return without skew (${algorithm}, sm BTL and Nemesis)`, () => {
      const machine = loadPreset('dancer');
      for (const shm of ['sm', 'nemesis']) {
        const outcome = runAlgorithm({
          machine,
          cores: machine.cores.map((c) => c.id),
          algorithm,
          call: { bytes: 64 * 1024, root: 0, params: { shm } },
          // Warm caches: the measured call is the run's first, started at time 0, so the trace's
          // times are the call's (a cold-cache run warms up first).
          cache: 'on',
          iterations: 1,
          warmup: 0,
          seed: 'call-time',
          keepTrace: true,
        });
        const lastEnd = outcome.events.reduce((t, e) => Math.max(t, e.end), 0);
        expect(outcome.times[0]).toBeCloseTo(lastEnd, 6);
      }
    });
  }

  // Open MPI's bindings return before the component for a call that moves nothing (ompi/mpi/c/*.c;
  // algorithms/collectives/semantics/mpi-entry.ts); MPI_Gatherv, MPI_Scatterv, MPI_Alltoallv and
  // MPI_Barrier call it whatever the counts.
  const zeroCall = (algorithm: string, counts?: number[], mpiBinding = true) => {
    const machine = loadPreset('dancer');
    return runAlgorithm({
      machine,
      cores: [0, 1, 4, 5],
      algorithm,
      call: { bytes: 0, root: 1, params: {}, counts },
      cache: 'on',
      iterations: 2,
      warmup: 1,
      seed: 'zero',
      keepTrace: true,
      mpiBinding,
    });
  };
  it.each([
    'bcast:binomial',
    'bcast:knem-linear',
    'gather:basic',
    'scatter:binomial',
    'alltoall:pairwise',
    'allgather:ring',
    'reduce:binomial',
    'allreduce:ring',
    'allgatherv:basic',
  ])('ends in the library for a call that moves nothing (%s)', (algorithm) => {
    const outcome = zeroCall(algorithm, algorithm.includes('v:') ? [0, 0, 0, 0] : undefined);
    expect(outcome.times).toEqual([0, 0]);
    expect(outcome.events).toEqual([]);
  });
  it('runs the algorithm for a call that moves nothing when no MPI binding is in between (the native programs)', () => {
    const outcome = zeroCall('bcast:basic', undefined, false);
    expect(outcome.times.every((t) => t > 0)).toBe(true);
  });

  it('leaves the v-calls but allgatherv, and the barrier, to the algorithm', () => {
    for (const op of ['gatherv', 'scatterv', 'alltoallv', 'barrier'] as const)
      expect(collectiveSemantics[op].returnsAtOnce).toBeUndefined();
    const barrier = zeroCall('barrier:basic');
    expect(barrier.times.every((t) => t > 0)).toBe(true);
  });
});
