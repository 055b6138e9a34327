import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Files that measure this machine or drive real programs on it (the native backend, Open MPI, a
// SLURM cluster, Chromium): they run on their own, one at a time, after the rest, so that no
// simulating test competes with them for the cores their timings and timeouts assume.
const ON_THE_MACHINE = ['test/native/**/*.test.ts', 'test/viz/browser.test.ts', 'test/scenarios/slurm-cluster.test.ts'];

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
          exclude: ON_THE_MACHINE,
          // One worker per core (vitest's default leaves one idle): these files are CPU-bound.
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
