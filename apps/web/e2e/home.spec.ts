import { expect, type Page, test } from '@playwright/test';
import { ADMIN } from '../playwright.config';
import { apiCall, apiLogin, uniqueSuffix } from './api';
import { signIn } from './steps';

/**
 * The home page, each role's own: where signing in leads, and where the header's brand leads. Its figures
 * are the API's totals, its lists the newest rows (made here through the API, with names of
 * their own), and its cards lead on. The other specs share the database and run beside this
 * one, so a figure is checked between the API's totals read before and after the page.
 */
const suffix = uniqueSuffix();
const ARTIST = {
  username: `Home Artist ${suffix}`,
  email: `home-artist-${suffix}@e2e.test`,
  password: 'home-pass-1',
};
const LISTENER = {
  username: `Home Listener ${suffix}`,
  email: `home-listener-${suffix}@e2e.test`,
  password: 'home-pass-2',
};
const OTHER = {
  username: `Home Other ${suffix}`,
  email: `home-other-${suffix}@e2e.test`,
  password: 'home-pass-3',
};
const names = {
  artist: `Home Band ${suffix}`,
  song: `Home Song ${suffix}`,
  publicMix: `Home Public Mix ${suffix}`,
  privateMix: `Home Private Mix ${suffix}`,
  listenerMix: `Home Listener Mix ${suffix}`,
};

test.beforeAll(async () => {
  const admin = await apiLogin(ADMIN);
  const artistUser = await apiCall<{ id: string }>('POST', '/users', admin, { ...ARTIST, role: 'artist' });
  await apiCall('POST', '/users', null, LISTENER);
  await apiCall('POST', '/users', null, OTHER);
  const artist = await apiCall<{ id: string }>('POST', '/artists', admin, {
    name: names.artist,
    userId: artistUser.id,
  });
  const song = await apiCall<{ id: string }>('POST', '/songs', admin, {
    title: names.song,
    album: 'Front Door',
    releaseYear: 2025,
    duration: 180,
    artistIds: [artist.id],
  });
  const other = await apiLogin(OTHER);
  for (const [name, isPublic] of [
    [names.publicMix, true],
    [names.privateMix, false],
  ] as const) {
    await apiCall('POST', '/playlists', other, { name, isPublic, songIds: [song.id] });
  }
  const listener = await apiLogin(LISTENER);
  await apiCall('POST', '/playlists', listener, { name: names.listenerMix, songIds: [song.id] });
});

/** The API's `total` of a list, as the admin reads it. */
async function total(token: string, path: string): Promise<number> {
  return (await apiCall<{ pagination: { total: number } }>('GET', `${path}?limit=1`, token)).pagination.total;
}

/** The figure on the card that leads to `href`. */
async function figure(page: Page, href: string): Promise<number> {
  const shown = page.locator(`main a.count-card[href="${href}"] .count-figure`);
  // "…" holds the place until the figure comes.
  await expect(shown).toHaveText(/^[\d,]+$/);
  return Number((await shown.textContent())?.replace(/,/g, ''));
}

async function expectHome(page: Page) {
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  // The brand leads home (there is no menu entry for it: the menu keeps to one line).
  await expect(page.getByRole('banner').getByRole('link', { name: 'Music Catalogue: home' })).toHaveAttribute(
    'aria-current',
    'page',
  );
}

test('an admin lands on counts that are the API’s, the latest activity and the service’s health', async ({
  page,
}) => {
  const admin = await apiLogin(ADMIN);
  const lists = ['/songs', '/artists', '/playlists', '/users'];
  const before = await Promise.all(lists.map((path) => total(admin, path)));
  // A change made just now is the first thing "Recent activity" tells.
  const renamed = `Home Renamed ${suffix}`;
  const made = await apiCall<{ id: string }>('POST', '/artists', admin, { name: renamed });
  await signIn(page, ADMIN);
  await expectHome(page);
  const after = await Promise.all(lists.map((path) => total(admin, path)));
  for (const [index, path] of lists.entries()) {
    const shown = await figure(page, path);
    expect(shown, path).toBeGreaterThanOrEqual(before[index]!);
    expect(shown, path).toBeLessThanOrEqual(after[index]!);
  }
  const recent = page.getByRole('list', { name: 'Recent events, newest first' });
  await expect(recent.getByRole('link', { name: `Artist “${renamed}”` })).toHaveAttribute(
    'href',
    `/artists/${made.id}`,
  );
  await expect(page.getByText('The API is ready and its database answers.')).toBeVisible();
  await page.getByRole('link', { name: 'All activity' }).click();
  await expect(page).toHaveURL(/\/activity$/);
  await page.goBack();
  await page.locator('main a.count-card[href="/users"]').click();
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
  await page.getByRole('banner').getByRole('link', { name: 'Music Catalogue: home' }).click();
  await expectHome(page);
});

test('an artist lands on their songs and the public playlists featuring them, not the private ones', async ({
  page,
}) => {
  await signIn(page, ARTIST);
  await expectHome(page);
  expect(await figure(page, '/songs')).toBe(1);
  await expect(page.locator('main a.count-card[href="/songs"]')).toContainText('song of yours');
  const latest = page.getByRole('region', { name: 'Your latest songs' });
  await expect(latest.getByRole('link', { name: names.song })).toBeVisible();
  await expect(latest).toContainText('Front Door · 2025');
  const featuring = page.getByRole('region', { name: 'Public playlists featuring you' });
  await expect(featuring.getByRole('link', { name: names.publicMix })).toBeVisible();
  await expect(featuring.getByText(names.privateMix)).toHaveCount(0);
  expect(await figure(page, '/artists/mine')).toBe(1);
  await featuring.getByRole('link', { name: names.publicMix }).click();
  await expect(page.getByRole('heading', { level: 1, name: names.publicMix })).toBeVisible();
});

test('a listener lands on what is new in the catalogue and their own playlists', async ({ page }) => {
  await signIn(page, LISTENER);
  await expectHome(page);
  expect(await figure(page, '/playlists')).toBe(1);
  const mine = page.getByRole('region', { name: 'Your playlists' });
  await expect(mine.getByRole('link', { name: names.listenerMix })).toBeVisible();
  await expect(mine).toContainText('1 song');
  // The newest songs, each with its artists; the others' playlists are not "yours".
  const news = page.getByRole('region', { name: 'New in the catalogue' });
  await expect(news.getByRole('listitem').first()).toBeVisible();
  expect(await news.getByRole('listitem').count()).toBeLessThanOrEqual(5);
  await expect(mine.getByText(names.publicMix)).toHaveCount(0);
  await page.getByRole('link', { name: 'All songs, newest first' }).click();
  await expect(page).toHaveURL(/\/songs\?sort=-createdAt$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Songs' })).toBeVisible();
});

test('an artist account not linked to an artist is told so on its home', async ({ page }) => {
  const admin = await apiLogin(ADMIN);
  const lone = {
    username: `Home Lone ${suffix}`,
    email: `home-lone-${suffix}@e2e.test`,
    password: 'home-pass-4',
  };
  await apiCall('POST', '/users', admin, { ...lone, role: 'artist' });
  await signIn(page, lone);
  await expectHome(page);
  await expect(
    page.getByText('Your account is not linked to an artist yet. Ask an admin to link it.'),
  ).toBeVisible();
  await expect(page.locator('main .count-figure')).toHaveCount(0);
});
