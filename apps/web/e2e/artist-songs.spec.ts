import { expect, test } from '@playwright/test';
import { ADMIN } from '../playwright.config';
import { apiCall, apiLogin, uniqueSuffix } from './api';
import { signIn } from './steps';

/**
 * An artist account's songs: "My songs" lists only the songs of the artists linked to the
 * account (none while none is linked, never the whole catalogue), and the song form says in
 * words why an artist cannot take all of their own artists off a song. Accounts, artists and
 * songs are made through the API with names of their own.
 */
const suffix = uniqueSuffix();
const PREFIX = `Artist Songs ${suffix}`;

interface Song {
  id: string;
  title: string;
  artistIds: string[];
}

async function artistAccount(admin: string, name: string) {
  const account = {
    username: `${PREFIX} ${name}`,
    email: `artist-songs-${name.toLowerCase()}-${suffix}@e2e.test`,
    password: 'artist-songs-password-1',
  };
  const user = await apiCall<{ id: string }>('POST', '/users', admin, { ...account, role: 'artist' });
  return { account, userId: user.id };
}

test('“My songs” of an artist account linked to no artist lists none, and the whole catalogue is a tab away', async ({
  page,
}) => {
  const admin = await apiLogin(ADMIN);
  const band = await apiCall<{ id: string }>('POST', '/artists', admin, { name: `${PREFIX} Band` });
  const song = await apiCall<Song>('POST', '/songs', admin, {
    title: `${PREFIX} Someone else's`,
    duration: 200,
    artistIds: [band.id],
  });
  const { account } = await artistAccount(admin, 'Unlinked');

  await signIn(page, account);
  await page.goto('/songs');
  await expect(page.getByRole('heading', { level: 1, name: 'My songs' })).toBeVisible();
  await expect(page.getByText('Your account is not linked to an artist yet.')).toBeVisible();
  await expect(
    page.getByText('Your songs are listed here once your account is linked to an artist.'),
  ).toBeVisible();
  // Not the whole catalogue under "My songs".
  await expect(page.locator('main table tbody tr')).toHaveCount(0);

  await page.getByRole('button', { name: 'Whole catalogue' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Songs' })).toBeVisible();
  await page.getByLabel('Search songs by title, album or artist').fill(song.title);
  await expect(page.locator('main tbody td[data-label="Title"]')).toHaveText([song.title]);
  await apiCall('DELETE', `/songs/${song.id}`, admin);
});

test('an artist who takes their own artist off their song is told why in words, and nothing is saved', async ({
  page,
}) => {
  const admin = await apiLogin(ADMIN);
  const { account, userId } = await artistAccount(admin, 'Own');
  const ownName = `${PREFIX} Own Band`;
  const own = await apiCall<{ id: string }>('POST', '/artists', admin, { name: ownName, userId });
  const song = await apiCall<Song>('POST', '/songs', admin, {
    title: `${PREFIX} Own`,
    duration: 180,
    artistIds: [own.id],
  });

  await signIn(page, account);
  await page.goto(`/songs/${song.id}`);
  const form = page.getByRole('region', { name: 'Edit' });
  await form.getByRole('button', { name: `Remove ${ownName}` }).click();
  await form.getByRole('button', { name: 'Save song' }).click();
  await expect(
    form.getByText(`Keep ${ownName} among the artists: your account may only save songs of its own artists`),
  ).toBeVisible();
  // Not the API's sentence, which names a field of its own.
  await expect(page.getByText('artistIds')).toHaveCount(0);
  expect((await apiCall<Song>('GET', `/songs/${song.id}`, admin)).artistIds).toEqual([own.id]);
  await apiCall('DELETE', `/songs/${song.id}`, admin);
});
