import { expect, test } from '@playwright/test';
import { ADMIN } from '../playwright.config';
import { apiCall, apiLogin, uniqueSuffix } from './api';
import { mainMenu, signIn } from './steps';

/**
 * The artists as a directory for every role: a listener finds "Artists" in the menu, searches
 * and opens an artist's page (its biography and songs, nothing to edit), and reaches it from a
 * song's artist name too; an admin also sees which account manages each artist, by name; an
 * artist account has both the directory and "My artist profile". The search rows that link a
 * song to an artist tell songs of the same title apart by artists, album and year. Accounts,
 * artists and songs are made through the API with names of their own.
 */
const suffix = uniqueSuffix();
const PREFIX = `Directory ${suffix}`;
const BAND = `${PREFIX} Band`;
const SOLO = `${PREFIX} Solo`;
const LISTENER = {
  username: `${PREFIX} Listener`,
  email: `directory-listener-${suffix}@e2e.test`,
  password: 'directory-password-1',
};
const MANAGER = {
  username: `${PREFIX} Manager`,
  email: `directory-manager-${suffix}@e2e.test`,
  password: 'directory-password-2',
};
const SONG = `${PREFIX} Twin`;
const ARTISTS_SEARCH = 'Search artists by name';

test.beforeAll(async () => {
  const admin = await apiLogin(ADMIN);
  await apiCall('POST', '/users', null, LISTENER);
  const manager = await apiCall<{ id: string }>('POST', '/users', admin, { ...MANAGER, role: 'artist' });
  const band = await apiCall<{ id: string }>('POST', '/artists', admin, {
    name: BAND,
    bio: 'Plays the directory tests.',
    userId: manager.id,
  });
  const solo = await apiCall<{ id: string }>('POST', '/artists', admin, { name: SOLO });
  // Two songs of one title: the band's on an album, the solo artist's without one.
  await apiCall('POST', '/songs', admin, {
    title: SONG,
    duration: 200,
    album: 'First Light',
    releaseYear: 2019,
    artistIds: [band.id],
  });
  await apiCall('POST', '/songs', admin, { title: SONG, duration: 180, artistIds: [solo.id] });
});

test('a listener browses the artists from the menu and opens one, read only', async ({ page }) => {
  await signIn(page, LISTENER);
  const menu = await mainMenu(page);
  await menu.getByRole('link', { name: 'Artists', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Artists' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'New artist' })).toHaveCount(0);
  await page.getByLabel(ARTISTS_SEARCH).fill(PREFIX);
  await expect.poll(() => new URL(page.url()).searchParams.get('search')).toBe(PREFIX);
  await expect(page.locator('main tbody td[data-label="Name"]')).toHaveText([BAND, SOLO]);
  // Who manages an artist is for admins.
  await expect(page.getByRole('columnheader', { name: 'Managed by' })).toHaveCount(0);

  await page.getByRole('link', { name: BAND }).click();
  await expect(page.getByRole('heading', { level: 1, name: BAND })).toBeVisible();
  await expect(page.getByText('Plays the directory tests.')).toBeVisible();
  await expect(page.getByRole('link', { name: SONG })).toBeVisible();
  await expect(page.getByLabel('Biography')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Delete artist' })).toHaveCount(0);
  await expect(page.getByText('Link a song')).toHaveCount(0);

  // Back to the directory, and to an artist from a song's artist name.
  await page.locator('.breadcrumbs').getByRole('link', { name: 'Artists' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Artists' })).toBeVisible();
  await page.goto(`/songs?search=${encodeURIComponent(SONG)}`);
  const soloRow = page.getByRole('row').filter({ hasText: SOLO });
  await soloRow.getByRole('link', { name: SOLO }).click();
  await expect(page.getByRole('heading', { level: 1, name: SOLO })).toBeVisible();
  await expect(page.getByText('No biography yet.')).toBeVisible();
});

test('an admin sees which account manages each artist, by name', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto(`/artists?search=${encodeURIComponent(PREFIX)}`);
  const managed = page.locator('main tbody td[data-label="Managed by"]');
  await expect(managed).toHaveText([MANAGER.username, 'No account']);
});

test('an artist account has the directory and its own profile in the menu', async ({ page }) => {
  await signIn(page, MANAGER);
  const menu = await mainMenu(page);
  await expect(menu.getByRole('link', { name: 'Artists', exact: true })).toBeVisible();
  await menu.getByRole('link', { name: 'My artist profile' }).click();
  // One profile: it opens at once, to edit.
  await expect(page.getByRole('heading', { level: 1, name: BAND })).toBeVisible();
  await expect(page.getByLabel('Biography')).toHaveValue('Plays the directory tests.');
  await page.goto('/artists/mine');
  await expect(page).toHaveURL(/\/artists\/[0-9a-f-]{36}$/);
});

test('linking a song tells songs of one title apart by artists, album and year', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto(`/artists?search=${encodeURIComponent(SOLO)}`);
  await page.getByRole('link', { name: SOLO }).click();
  await page.getByLabel(`Search songs to link to ${SOLO}`).fill(SONG);
  const rows = page.locator('main .subsection .rows > li');
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: `${BAND} · First Light · 2019` })).toHaveCount(1);
  await expect(rows.filter({ hasText: SOLO })).toContainText('Linked');
});
