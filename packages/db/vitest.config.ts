import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // One migrated database for the run, copied by each file (see testing/global-setup.ts).
    globalSetup: ['./testing/global-setup.ts'],
    // Files share their worker's modules instead of importing everything again each: none mocks,
    // fakes timers or changes the environment, each has a database of its own, and what modules
    // keep at their level (prepared-statement names, the id clock) is meant to be process-wide.
    isolate: false,
  },
});
