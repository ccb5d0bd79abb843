import { expect, type Page, test } from '@playwright/test';
import { apiCall, uniqueSuffix } from './api';
import { signIn } from './steps';

/**
 * The dark theme: the console follows the system's light or dark setting, and the account page's
 * Theme switch chooses one for this browser, at once and for the next pages, rendered by the
 * server in it (no light flash before a dark page). Contrast in both themes is axe's, in
 * accessibility.spec.ts.
 */
const suffix = uniqueSuffix();
const LISTENER = {
  username: `Theme Listener ${suffix}`,
  email: `theme-${suffix}@e2e.test`,
  password: 'theme-password-1',
};
const DARK_BG = 'rgb(15, 18, 23)';
const LIGHT_BG = 'rgb(246, 247, 249)';

test.beforeAll(async () => {
  await apiCall('POST', '/users', null, LISTENER);
});

test.use({ colorScheme: 'dark' });

const background = (page: Page) =>
  page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);

test('the console follows a dark system, and the switch chooses a theme for this browser', async ({
  page,
}) => {
  await page.goto('/sign-in');
  expect(await background(page)).toBe(DARK_BG);
  await signIn(page, LISTENER);
  expect(await background(page)).toBe(DARK_BG);

  await page.goto('/account');
  const theme = page.getByLabel('Theme');
  await expect(theme).toHaveValue('system');
  await theme.selectOption({ label: 'Light' });
  await expect.poll(() => background(page)).toBe(LIGHT_BG);

  // The next page comes from the server already light: its HTML says so.
  const response = await page.goto('/songs');
  expect(await response!.text()).toMatch(/<html[^>]* data-theme="light"/);
  expect(await background(page)).toBe(LIGHT_BG);
  await page.goto('/account');
  await expect(theme).toHaveValue('light');

  await theme.selectOption({ label: 'Dark' });
  await expect.poll(() => background(page)).toBe(DARK_BG);
  await theme.selectOption({ label: 'As the system' });
  await expect.poll(() => background(page)).toBe(DARK_BG);
  const plain = await page.goto('/songs');
  expect(await plain!.text()).not.toMatch(/<html[^>]* data-theme=/);
  // A light system is followed again.
  await page.emulateMedia({ colorScheme: 'light' });
  await expect.poll(() => background(page)).toBe(LIGHT_BG);
});
