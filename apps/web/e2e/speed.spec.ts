import { devices, expect, type Page, test } from '@playwright/test';
import { ADMIN } from '../playwright.config';
import { apiCall, apiLogin, uniqueSuffix } from './api';
import { screenshot, signIn } from './steps';

/**
 * How soon each main page is usable after a navigation, on the production build: from the click
 * on the menu link (the console's own navigation) to the page's heading and its first row (or
 * its empty state) on screen. The budget is 1 s; each figure is the median of three navigations
 * and is reported in the test's annotations (the HTML report). Screenshots of each role's main
 * pages, on a desktop and on a phone, are kept in test-results/screens.
 */
const BUDGET_MS = 1000;
const suffix = uniqueSuffix();
const password = 'speed-password-1';
const ARTIST = { username: `Speed Artist ${suffix}`, email: `speed-artist-${suffix}@e2e.test`, password };
const LISTENER = {
  username: `Speed Listener ${suffix}`,
  email: `speed-listener-${suffix}@e2e.test`,
  password,
};

test.beforeAll(async () => {
  const admin = await apiLogin(ADMIN);
  const account = await apiCall<{ id: string }>('POST', '/users', admin, { ...ARTIST, role: 'artist' });
  await apiCall('POST', '/users', null, LISTENER);
  const artist = await apiCall<{ id: string }>('POST', '/artists', admin, {
    name: `Speed Band ${suffix}`,
    userId: account.id,
  });
  await apiCall('POST', '/songs', admin, {
    title: `Speed Song ${suffix}`,
    duration: 200,
    artistIds: [artist.id],
  });
  await apiCall('POST', '/playlists', await apiLogin(LISTENER), { name: `Speed Mix ${suffix}` });
});

/** The page is usable: its heading, and its first row or its empty state, are on screen. */
async function usable(page: Page, heading: RegExp) {
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  await expect(page.locator('main tbody tr, main .empty, main .card').first()).toBeVisible();
}

type Target = readonly [link: string, heading: RegExp];

/** Goes to a page by the main menu and waits until it is usable; how long that took, in ms. */
async function go(page: Page, [link, heading]: Target): Promise<number> {
  const started = Date.now();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link }).click();
  await usable(page, heading);
  return Date.now() - started;
}

/** Median milliseconds from clicking the menu link to the page being usable, three times. */
async function timeNavigation(page: Page, target: Target, away: Target): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    await go(page, away);
    times.push(await go(page, target));
  }
  return times.sort((a, b) => a - b)[1]!;
}

const PAGES = {
  admin: [
    ['Songs', /^Songs$/],
    ['Artists', /^Artists$/],
    ['Playlists', /^Playlists$/],
    ['Users', /^Users$/],
  ],
  artist: [
    ['Songs', /^My songs$/],
    ['Playlists', /^Playlists$/],
  ],
  user: [
    ['Songs', /^Songs$/],
    ['Playlists', /^Playlists$/],
  ],
} as const;

for (const [role, who] of [
  ['admin', ADMIN],
  ['artist', ARTIST],
  ['user', LISTENER],
] as const) {
  test(`${role}: each main page is usable within ${BUDGET_MS} ms of navigation`, async ({ page }) => {
    await signIn(page, who);
    const figures: string[] = [];
    for (const [link, heading] of PAGES[role]) {
      const away = PAGES[role].find(([other]) => other !== link)!;
      const ms = await timeNavigation(page, [link, heading], away);
      figures.push(`${link} ${ms} ms`);
      await screenshot(page, `${role}-${link.toLowerCase()}-desktop`);
      expect(ms, `${link} for ${role}`).toBeLessThanOrEqual(BUDGET_MS);
    }
    // In the run's log too, so the figures are read without opening the report.
    console.log(`usable after navigation (${role}, median of 3): ${figures.join(', ')}`);
    test.info().annotations.push({
      type: `usable after navigation (${role}, median of 3)`,
      description: figures.join(', '),
    });
  });
}

test.describe('on a phone', () => {
  // The device's browser type cannot be set inside a describe: the rest of it (viewport, touch).
  const { defaultBrowserType: _, ...pixel7 } = devices['Pixel 7'];
  test.use(pixel7);
  for (const [role, who] of [
    ['admin', ADMIN],
    ['artist', ARTIST],
    ['user', LISTENER],
  ] as const) {
    test(`${role}: the main pages, kept as screenshots`, async ({ page }) => {
      await signIn(page, who);
      for (const [link, heading] of PAGES[role]) {
        await page.getByRole('button', { name: 'Menu' }).click();
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link }).click();
        await usable(page, heading);
        await screenshot(page, `${role}-${link.toLowerCase()}-phone`);
      }
    });
  }
});
