import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Property suites simulate many runs; the CI machine has two cores.
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
