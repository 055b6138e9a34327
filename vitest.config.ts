import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Files that measure this machine or drive real programs on it (the native backend, Open MPI, a
// SLURM cluster): they run on their own, one at a time, after the rest, so that no simulating test
// competes with them for the cores their timings and timeouts assume.
const ON_THE_MACHINE = ['test/native/**/*.test.ts', 'test/scenarios/slurm-cluster.test.ts'];
// The visualizer in Chromium asserts no timing (its speed figures are printed, not checked) and its
// waits allow tens of seconds, so it shares the simulating files' workers (Chromium's own work
// then overlaps theirs) instead of adding its time to the serial files'.
const IN_THE_BROWSER = ['test/viz/browser.test.ts'];

export default defineConfig({
  test: {
    // Property suites simulate many runs; the CI machine has two cores.
    testTimeout: 120_000,
    hookTimeout: 60_000,
    // Test files share their worker's modules instead of importing the simulator afresh each (no
    // test mocks modules or changes shared state): the suite takes about half the time.
    isolate: false,
    projects: [
      {
        extends: true,
        test: {
          name: 'simulator',
          include: ['test/**/*.test.ts'],
          exclude: [...ON_THE_MACHINE, ...IN_THE_BROWSER],
          // One worker per core (vitest's default leaves one idle): these files are CPU-bound.
          maxWorkers: availableParallelism(),
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: IN_THE_BROWSER,
          maxWorkers: availableParallelism(),
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'machine',
          include: ON_THE_MACHINE,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
