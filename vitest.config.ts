import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Property suites simulate many runs; the CI machine has two cores.
    testTimeout: 120_000,
    hookTimeout: 60_000,
    // Test files share their worker's modules instead of importing the simulator afresh each (no
    // test mocks modules or changes shared state): the suite takes about half the time.
    isolate: false,
  },
});
