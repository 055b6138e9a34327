// What a call's time is (docs/scenario-format.md, "Arrival skew"): without skew, from the common start
// to the last rank's return; events no rank waits for that are still queued then (a notice in
// flight) do not count. Checked against the trace: the last step of any rank ends at the last return
// in these runs, where every rank's call ends with a step of its own.
import { describe, expect, it } from 'vitest';
import { runAlgorithm } from '../../algorithms/harness/simulate.ts';
import { loadPreset } from '../../hardware/presets.ts';

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
});
