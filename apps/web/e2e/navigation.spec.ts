import { type APIRequestContext, expect, test } from '@playwright/test';
import { ADMIN } from '../playwright.config';
import { followHeaderLink, recordApiCalls, signIn } from './steps';

/**
 * Finding one's way: every page names itself in the document title, an address with no page
 * answers with the console's own 404 and a way back, an unknown record says so, the songs list
 * costs a fixed number of calls whatever its artists, and a slow search says it is searching
 * while the last rows stay. The catalogue here is made through the API (much faster than the
 * forms, which console.spec.ts covers), with names of its own so other spec files do not matter.
 */

/** The API as playwright.config.ts starts it (E2E_API_PORT, default 4310). */
const API = `http://127.0.0.1:${Number(process.env.E2E_API_PORT ?? 4310)}/v1`;
const SUFFIX = Math.random().toString(36).slice(2, 8);
const ARTIST_COUNT = 4;
const SONG_COUNT = 24;
/** Leading "0": the list sorts by title, so these come first, ahead of other files' songs. */
const songTitle = (n: number) => `0 Nav ${SUFFIX} Track ${String(n).padStart(2, '0')}`;
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const SEARCH_LABEL = 'Search songs by title, album or artist';

interface Created {
  id: string;
}

const made = {
  artists: [] as Array<Created & { name: string }>,
  songs: [] as Array<Created & { title: string }>,
  playlist: { id: '', name: '' },
};

async function create<T>(api: APIRequestContext, path: string, data: object): Promise<T> {
  const res = await api.post(`${API}${path}`, { data });
  expect(res.status(), `POST ${path}: ${await res.text()}`).toBe(201);
  return (await res.json()) as T;
}

test.beforeAll(async ({ playwright }) => {
  const anonymous = await playwright.request.newContext();
  const login = await anonymous.post(`${API}/auth/login`, { data: ADMIN });
  expect(login.status(), await login.text()).toBe(200);
  const { accessToken } = (await login.json()) as { accessToken: string };
  await anonymous.dispose();
  const api = await playwright.request.newContext({
    extraHTTPHeaders: { authorization: `Bearer ${accessToken}` },
  });
  for (let i = 0; i < ARTIST_COUNT; i++) {
    const name = `Nav ${SUFFIX} Artist ${String.fromCharCode(65 + i)}`;
    made.artists.push(await create(api, '/artists', { name }));
  }
  // Each artist has songs on the first page, so a page of 20 names four different artists.
  for (let n = 1; n <= SONG_COUNT; n++) {
    const artist = made.artists[n % ARTIST_COUNT]!;
    made.songs.push(
      await create(api, '/songs', { title: songTitle(n), duration: 180 + n, artistIds: [artist.id] }),
    );
  }
  made.playlist = await create(api, '/playlists', { name: `Nav ${SUFFIX} Playlist` });
  await api.dispose();
});

test('every page names itself in the document title', async ({ page }) => {
  await page.goto('/sign-in');
  await expect(page).toHaveTitle('Sign in · Music Catalogue');
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  await expect(page).toHaveTitle('Home · Music Catalogue');

  // Moving through the menu (client-side navigation): each page's title replaces the last one's.
  for (const name of ['Artists', 'Playlists', 'Users', 'Songs']) {
    await followHeaderLink(page, name);
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(page).toHaveTitle(`${name} · Music Catalogue`);
  }

  // Records: their own name, once loaded, whether opened from a list or directly.
  const song = made.songs[0]!;
  await page.getByLabel(SEARCH_LABEL).fill(song.title);
  await page.getByRole('link', { name: song.title, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: song.title })).toBeVisible();
  await expect(page).toHaveTitle(`${song.title} · Music Catalogue`);
  const artist = made.artists[0]!;
  await page.goto(`/artists/${artist.id}`);
  await expect(page.getByRole('heading', { level: 1, name: artist.name })).toBeVisible();
  await expect(page).toHaveTitle(`${artist.name} · Music Catalogue`);
  await page.goto(`/playlists/${made.playlist.id}`);
  await expect(page.getByRole('heading', { level: 1, name: made.playlist.name })).toBeVisible();
  await expect(page).toHaveTitle(`${made.playlist.name} · Music Catalogue`);
  // Back to a list by its breadcrumb: the list's title again.
  await page.locator('.breadcrumbs').getByRole('link', { name: 'Playlists' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Playlists' })).toBeVisible();
  await expect(page).toHaveTitle('Playlists · Music Catalogue');
});

test('an address with no page shows the console’s own 404, with a way back', async ({ page }) => {
  await signIn(page, ADMIN);
  for (const path of [`/no-such-page-${SUFFIX}`, `/songs/${made.songs[0]!.id}/nothing-here`]) {
    const response = await page.goto(path);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
    await expect(page.getByText(path, { exact: true })).toBeVisible();
    await expect(page).toHaveTitle('Page not found · Music Catalogue');
  }
  // Styled by the console's stylesheet (Next's bare page has no card), not Next's own page.
  await expect(page.getByText('This page could not be found')).toHaveCount(0);
  await expect(page.locator('main.sign-in')).toHaveCSS('display', 'grid');
  await page.getByRole('link', { name: 'Go to the home page' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  await expect(page).toHaveTitle('Home · Music Catalogue');
});

test('an unknown record says it is not found, with a way back', async ({ page }) => {
  await signIn(page, ADMIN);
  // In the page, not Next's route announcer (an alert region of its own).
  const alert = page.getByRole('main').getByRole('alert');
  await page.goto(`/artists/${UNKNOWN_ID}`);
  await expect(alert).toContainText('Artist not found');
  await expect(page).toHaveTitle('Artist not found · Music Catalogue');
  await page.getByRole('link', { name: 'Back to artists' }).click();
  await expect(page).toHaveURL(/\/artists$/);
  await expect(page).toHaveTitle('Artists · Music Catalogue');

  await page.goto(`/playlists/${UNKNOWN_ID}`);
  await expect(alert).toContainText('Playlist not found');
  await expect(page).toHaveTitle('Playlist not found · Music Catalogue');
  await page.getByRole('link', { name: 'Back to playlists' }).click();
  await expect(page).toHaveURL(/\/playlists$/);
});

test('a page of 20 songs by several artists costs at most 3 calls to the API', async ({ page }) => {
  await signIn(page, ADMIN);
  // A new tab of the same session, so no call of the sign-in's own page is counted.
  const tab = await page.context().newPage();
  const calls = recordApiCalls(tab);
  await tab.goto('/songs');
  await expect(tab.getByRole('row')).toHaveCount(21); // the header and 20 songs
  const artistCells = tab.locator('td[data-label="Artists"]');
  // Every name arrived ("…" is a name on its way).
  await expect(artistCells.filter({ hasText: '…' })).toHaveCount(0);
  await tab.waitForLoadState('networkidle');
  const artists = new Set(await artistCells.allTextContents());
  test.info().annotations.push({
    type: 'API calls loading /songs',
    description: `${calls.length} for 20 songs by ${artists.size} artists: ${calls.join(' | ')}`,
  });
  expect(artists.size).toBeGreaterThanOrEqual(ARTIST_COUNT);
  expect(calls.length).toBeLessThanOrEqual(3);
});

test('a slow search says “Searching…” and keeps the last rows until its answer', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto('/songs');
  const search = page.getByLabel(SEARCH_LABEL);
  const table = page.locator('table.table');
  const searching = page.getByRole('status').filter({ hasText: 'Searching…' });
  // This file's songs: Track 01 to 20 on the first page.
  await search.fill(`Nav ${SUFFIX} Track`);
  await expect(page.getByText(`Page 1 of 2 · ${SONG_COUNT} items`)).toBeVisible();
  const first = page.getByRole('link', { name: songTitle(1), exact: true });
  await expect(first).toBeVisible();
  await expect(searching).toHaveCount(0);
  await expect(table).not.toHaveAttribute('aria-busy', 'true');

  // The next search (Track 21 alone) is held back until the checks below are done. Each word of a
  // search matches anywhere in a song's folded text: a bare "2" would find Track 02 and 12 too.
  const term = `Nav ${SUFFIX} Track 21`;
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(
    (url) => url.pathname === '/api/trpc/songs.list' && (url.searchParams.get('input') ?? '').includes(term),
    async (route) => {
      await released;
      await route.continue();
    },
  );
  await search.fill(term);
  await expect(searching).toBeVisible();
  await expect(table).toHaveAttribute('aria-busy', 'true');
  await expect(first).toBeVisible(); // the last answer stays meanwhile
  await expect(page.getByRole('link', { name: songTitle(21), exact: true })).toHaveCount(0);

  release();
  await expect(page.getByRole('link', { name: songTitle(21), exact: true })).toBeVisible();
  await expect(first).toHaveCount(0);
  await expect(searching).toHaveCount(0);
  await expect(table).not.toHaveAttribute('aria-busy', 'true');
  await expect(page.getByRole('row')).toHaveCount(2); // the header and Track 21
});

test('a song opened while its search is still being typed in stays open (the search does not pull back to the list)', async ({
  page,
}) => {
  await signIn(page, ADMIN);
  await page.goto('/songs');
  const song = made.songs[2]!;
  // The song's page loads slowly, so the search's pending address change (250 ms after the last
  // key) comes while that page is on its way.
  await page.route(
    (url) => url.pathname === `/songs/${song.id}`,
    async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 800));
      await route.continue();
    },
  );
  await page.getByLabel(SEARCH_LABEL).fill(song.title);
  await page.getByRole('link', { name: song.title, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: song.title })).toBeVisible();
  await page.waitForTimeout(500);
  await expect(page).toHaveURL(new RegExp(`/songs/${song.id}$`));
});
