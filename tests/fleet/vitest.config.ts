import { defineConfig } from 'vitest/config';

// One file, scenarios in order on one fleet: nothing runs in parallel with it.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    fileParallelism: false,
  },
});
