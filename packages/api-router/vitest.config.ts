import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // One migrated database for the run, copied by each file (@music/db's testing/global-setup.ts).
    globalSetup: ['@music/db/testing/global-setup'],
    // Files share their worker's modules instead of importing everything again each: none mocks,
    // fakes timers, changes the environment or keeps state of its own at module level, and each
    // has a database of its own.
    isolate: false,
  },
});
