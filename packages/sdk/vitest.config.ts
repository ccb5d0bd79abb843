import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // One migrated database for the run, copied by each file's API (@music/db's testing/global-setup.ts).
    globalSetup: ['../db/testing/global-setup.ts'],
  },
});
