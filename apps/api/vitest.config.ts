import { configDefaults, defineConfig } from 'vitest/config';

// These fake the clock or spy on process.stdout: each runs in a fresh module graph of its own,
// so nothing they change can reach another file even if a restore is missed.
const ISOLATED = ['test/resources/auth.test.ts', 'src/runtime/logger.test.ts'];
const HARDENING = ['test/hardening/**/*.test.ts'];
const shared = {
  testTimeout: 30_000,
  hookTimeout: 60_000,
  // Files share their worker's modules instead of importing everything again each: each has a
  // database and servers of its own, and what modules keep at their level is either a cache of
  // what never changes (the served document, the docs' assets) or a counter for unique names.
  isolate: false,
};

export default defineConfig({
  test: {
    // One migrated database for the run, copied by each file (@music/db's testing/global-setup.ts).
    // Set here, on the root, it runs once and every project receives what it provides.
    globalSetup: ['@music/db/testing/global-setup'],
    // Projects, not one list: the CLI's --exclude does not reach projects, so the quick run
    // without the attack, fault and load suites is `vitest run --project '!hardening'`.
    projects: [
      {
        test: {
          ...shared,
          name: 'http',
          // The API's suites by concern under test/, unit tests beside their files under src/.
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...ISOLATED, ...HARDENING],
        },
      },
      { test: { ...shared, name: 'hardening', include: HARDENING } },
      { test: { ...shared, name: 'isolated', include: ISOLATED, isolate: true } },
    ],
  },
});
