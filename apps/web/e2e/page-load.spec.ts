import { type BrowserContext, expect, test } from '@playwright/test';
import { ADMIN } from '../playwright.config';
import { apiCall, apiLogin, uniqueSuffix } from './api';
import { recordApiCalls, signIn } from './steps';

/**
 * Every page of the console, first loaded in a new tab of a signed-in session, for each role:
 * at most 3 calls from the browser to the API (`/api/trpc/…`; a record page's record comes with
 * its HTML), and no layout shift worth the name (cumulative layout shift under 0.1, measured by
 * the browser's own `layout-shift` entries, as Core Web Vitals does). The figures of each page
 * are attached to the report.
 */
const suffix = uniqueSuffix();
const ARTIST = {
  username: `Load Artist ${suffix}`,
  email: `load-artist-${suffix}@e2e.test`,
  password: 'load-password-1',
};
const LISTENER = {
  username: `Load Listener ${suffix}`,
  email: `load-listener-${suffix}@e2e.test`,
  password: 'load-password-2',
};
const made = { songId: '', artistId: '', playlistId: '' };

test.beforeAll(async () => {
  const admin = await apiLogin(ADMIN);
  const artistUser = await apiCall<{ id: string }>('POST', '/users', admin, { ...ARTIST, role: 'artist' });
  await apiCall('POST', '/users', null, LISTENER);
  made.artistId = (
    await apiCall<{ id: string }>('POST', '/artists', admin, {
      name: `Load Band ${suffix}`,
      userId: artistUser.id,
    })
  ).id;
  made.songId = (
    await apiCall<{ id: string }>('POST', '/songs', admin, {
      title: `Load Song ${suffix}`,
      duration: 200,
      artistIds: [made.artistId],
    })
  ).id;
  const listener = await apiLogin(LISTENER);
  made.playlistId = (
    await apiCall<{ id: string }>('POST', '/playlists', listener, {
      name: `Load Mix ${suffix}`,
      isPublic: true,
      songIds: [made.songId],
    })
  ).id;
});

declare global {
  interface Window {
    __layoutShift?: number;
  }
}

/** The page at `path` in a new tab of `context`: its API calls and its cumulative layout shift. */
async function firstLoad(context: BrowserContext, path: string) {
  const tab = await context.newPage();
  await tab.addInitScript(() => {
    window.__layoutShift = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Array<
        PerformanceEntry & { value: number; hadRecentInput: boolean }
      >) {
        if (!entry.hadRecentInput) window.__layoutShift! += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  const calls = recordApiCalls(tab);
  await tab.goto(path);
  await expect(tab.locator('main h1')).toBeVisible();
  await expect(tab.locator('.loading')).toHaveCount(0);
  await tab.waitForLoadState('networkidle');
  // Names arrive after their rows ("…" until then): the page is whole once none is left.
  await expect(tab.locator('main').getByText('…', { exact: true })).toHaveCount(0);
  const shift = await tab.evaluate(() => window.__layoutShift ?? 0);
  await tab.close();
  test.info().annotations.push({
    type: path,
    description: `${calls.length} API calls (${calls.join(', ')}), layout shift ${shift.toFixed(4)}`,
  });
  return { calls, shift };
}

/** The pages every role has: home, the catalogue's lists and a record of each kind but playlists. */
const catalogue = () => [
  '/',
  '/songs',
  `/songs/${made.songId}`,
  '/artists',
  `/artists/${made.artistId}`,
  '/playlists',
];

const ROLES = [
  {
    name: 'admin',
    who: ADMIN,
    pages: () => [...catalogue(), `/playlists/${made.playlistId}`, '/users', '/activity', '/account'],
  },
  { name: 'artist', who: ARTIST, pages: catalogue },
  {
    name: 'listener',
    who: LISTENER,
    pages: () => [...catalogue(), `/playlists/${made.playlistId}`],
  },
];

for (const role of ROLES) {
  test(`${role.name}: each page loads with at most 3 API calls and a layout shift under 0.1`, async ({
    page,
    context,
  }) => {
    await signIn(page, role.who);
    for (const path of role.pages()) {
      const { calls, shift } = await firstLoad(context, path);
      expect(calls.length, `${path}: ${calls.join(', ')}`).toBeLessThanOrEqual(3);
      expect(shift, `${path}: cumulative layout shift`).toBeLessThan(0.1);
    }
  });
}
