import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // One migrated database for the run, copied by each file (see src/testing/global-setup.ts).
    globalSetup: ['./src/testing/global-setup.ts'],
  },
});
