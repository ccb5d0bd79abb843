import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';

/**
 * Browser tests against the built console (dist/console-server.mjs) and the built API on a fresh
 * embedded database. Run `pnpm build` first. Chromium: CHROMIUM_PATH, else Debian's
 * /usr/bin/chromium, else Playwright's own download (`npx playwright install chromium`, where that
 * is possible).
 */
const API_PORT = Number(process.env.E2E_API_PORT ?? 4310);
const WEB_PORT = Number(process.env.E2E_WEB_PORT ?? 3310);
/** Where the specs read the mail the API sent (e2e/mailbox.mjs, started by e2e/start-api.mjs). */
export const MAIL_PORT = Number(process.env.E2E_MAIL_PORT ?? 4311);
export const ADMIN = { email: 'admin@e2e.test', password: 'e2e-admin-password' };

// A phone with a touch screen, in Chromium (Playwright's Pixel 7 is a Chromium device already;
// its defaultBrowserType only says so again and is not allowed inside a project's `use`).
const { defaultBrowserType: _, ...phone } = devices['Pixel 7'];

const systemChromium = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (candidate): candidate is string => Boolean(candidate && existsSync(candidate)),
);

export default defineConfig({
  testDir: './e2e',
  outputDir: './test-results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['html', { outputFolder: 'playwright-report', open: 'never' }]],
  use: {
    baseURL: `http://127.0.0.1:${WEB_PORT}`,
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: systemChromium ? { executablePath: systemChromium } : {},
  },
  // The journeys (console, session) tell one story on the fresh database and count what they
  // made; the feature specs run after them and make records of their own, with unique names, on
  // a desktop and again on a phone with touch (the speed spec measures both itself).
  projects: [
    { name: 'journeys', testMatch: /(console|session)\.spec\.ts$/, use: { ...devices['Desktop Chrome'] } },
    {
      name: 'features',
      testIgnore: /(console|session)\.spec\.ts$/,
      dependencies: ['journeys'],
      use: { ...devices['Desktop Chrome'] },
    },
    {
      name: 'phone',
      testIgnore: /(console|session|speed|spoofed-address)\.spec\.ts$/,
      dependencies: ['journeys'],
      use: phone,
    },
  ],
  webServer: [
    {
      command: 'node e2e/start-api.mjs',
      url: `http://127.0.0.1:${API_PORT}/v1/health`,
      timeout: 60_000,
      reuseExistingServer: false,
      env: {
        PORT: String(API_PORT),
        HOST: '127.0.0.1',
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        E2E_MAIL_PORT: String(MAIL_PORT),
        // Mailed links lead to this console.
        CONSOLE_URL: `http://127.0.0.1:${WEB_PORT}`,
        // Every spec signs up, asks for reset links and opens pages from 127.0.0.1: the API's
        // limits per address would refuse the suite itself. The limits are tested in the API's
        // own suites. The sign-in throttle keeps its defaults (security.spec.ts relies on them).
        SIGNUPS_PER_ADDRESS_PER_HOUR: '0',
        PASSWORD_RESETS_PER_QUARTER_HOUR: '1000',
        RATE_LIMIT_ANONYMOUS_PER_MINUTE: '6000',
      },
    },
    {
      // The console as it runs everywhere: its own server in front of Next (console-server/).
      // No proxy in front of it here, so TRUST_PROXY stays none whatever the shell says
      // (security.spec.ts counts on a browser's X-Forwarded-For being ignored).
      command: 'node dist/console-server.mjs',
      url: `http://127.0.0.1:${WEB_PORT}/sign-in`,
      timeout: 60_000,
      reuseExistingServer: false,
      env: {
        API_URL: `http://127.0.0.1:${API_PORT}`,
        WEB_HOST: '127.0.0.1',
        WEB_PORT: String(WEB_PORT),
        TRUST_PROXY: 'none',
      },
    },
  ],
});
