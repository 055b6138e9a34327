import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// Files that measure this machine or drive real programs on it (the native backend, Open MPI, a
// SLURM cluster): they run on their own, one at a time, after the rest, so that no simulating test
// competes with them for the cores their timings and timeouts assume.
const ON_THE_MACHINE = ['test/native/**/*.test.ts', 'test/scenarios/slurm-cluster.test.ts'];
// The visualizer in Chromium asserts no timing (its speed figures are printed, not checked) and its
// waits allow tens of seconds, so it shares the simulating files' workers (Chromium's own work
// then overlaps theirs) instead of adding its time to the serial files'.
const IN_THE_BROWSER = ['test/viz/browser.test.ts'];
// The property shards are three-line files that run the suite's longest simulations. Vitest runs
// the files it has no timings for largest first, so on a fresh clone (CI) they came last, and a
// shard of 10-25 s started last kept one worker busy while the other sat idle.
const LONG_BUT_SMALL = /test\/collectives\/properties\.\d+\.test\.ts$/;
const isLongButSmall = (f: TestSpecification): boolean => LONG_BUT_SMALL.test(f.moduleId);

/** Vitest's order (timings when it has them, else file sizes), with the property shards moved to
 *  the front of their project's files. */
class LongFilesFirst extends BaseSequencer {
  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const block = (f: TestSpecification) => `${f.project.config.sequence.groupOrder} ${f.project.name}`;
    const out: TestSpecification[] = [];
    for (let i = 0; i < sorted.length;) {
      let j = i;
      while (j < sorted.length && block(sorted[j]) === block(sorted[i])) j++;
      const run = sorted.slice(i, j);
      out.push(...run.filter(isLongButSmall), ...run.filter((f) => !isLongButSmall(f)));
      i = j;
    }
    return out;
  }
}

export default defineConfig({
  test: {
    // Property suites simulate many runs; the CI machine has two cores.
    testTimeout: 120_000,
    hookTimeout: 60_000,
    // Test files share their worker's modules instead of importing the simulator afresh each (no
    // test mocks modules or changes shared state): the suite takes about half the time.
    isolate: false,
    sequence: { sequencer: LongFilesFirst },
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
