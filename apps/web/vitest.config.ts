import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Unit tests of the console's own logic (the screens are covered by the Playwright suite).
export default defineConfig({
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./src', import.meta.url)),
      // `server-only` throws outside Next's server build; here it is just a marker.
      'server-only': fileURLToPath(new URL('./test/empty.ts', import.meta.url)),
    },
  },
  test: { include: ['src/**/*.test.ts', 'console-server/**/*.test.ts'], testTimeout: 30_000 },
});
