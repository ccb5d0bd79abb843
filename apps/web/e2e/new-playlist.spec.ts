import { expect, test } from '@playwright/test';
import { ADMIN } from '../playwright.config';
import { apiCall, apiLogin, uniqueSuffix } from './api';
import { signIn } from './steps';

/**
 * "Add to playlist" makes a new playlist too: a listener with no playlist yet names one in the
 * dialog and it is made, private, with the song in it; a name the API would refuse is refused
 * in words beside the field, and nothing is made. The song and the listener are made through the
 * API with names of their own.
 */
const suffix = uniqueSuffix();
const SONG = `New Playlist Song ${suffix}`;
const LISTENER = {
  username: `New Playlist Listener ${suffix}`,
  email: `new-playlist-${suffix}@e2e.test`,
  password: 'new-playlist-password-1',
};
let songId = '';

test.beforeAll(async () => {
  const admin = await apiLogin(ADMIN);
  songId = (await apiCall<{ id: string }>('POST', '/songs', admin, { title: SONG, duration: 200 })).id;
  await apiCall('POST', '/users', null, LISTENER);
});

/** The listener's own playlists, read through the API. */
async function ownPlaylists() {
  const token = await apiLogin(LISTENER);
  const me = await apiCall<{ id: string }>('GET', '/auth/me', token);
  return apiCall<{ data: Array<{ name: string; isPublic: boolean; songIds: string[] }> }>(
    'GET',
    `/playlists?userId=${me.id}`,
    token,
  );
}

test('a listener makes a new playlist with the song in it from "Add to playlist"', async ({ page }) => {
  await signIn(page, LISTENER);
  await page.goto(`/songs/${songId}`);
  await page.getByRole('button', { name: 'Add to playlist', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `Add “${SONG}” to a playlist` });
  await expect(
    dialog.getByText('You have no playlists yet: make one below, with this song in it.'),
  ).toBeVisible();

  const name = dialog.getByLabel('New playlist');
  const create = dialog.getByRole('button', { name: 'Create and add' });
  // Refused in words, nothing made: an empty name, then one too long.
  await create.click();
  await expect(name).toHaveAccessibleDescription(/Enter a name/);
  await name.fill('x'.repeat(101));
  await expect(dialog.getByText('1 character too many')).toBeVisible();
  await create.click();
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  expect((await ownPlaylists()).data).toHaveLength(0);

  const playlistName = `Made here ${suffix}`;
  await name.fill(playlistName);
  await name.press('Enter');
  await expect(dialog.getByRole('status')).toHaveText(`Created “${playlistName}” with “${SONG}” in it.`);
  const choice = dialog.getByRole('list', { name: 'Your playlists' }).getByRole('listitem');
  await expect(choice).toHaveCount(1);
  await expect(choice).toContainText(playlistName);
  await expect(choice).toContainText('Already in this playlist');
  await expect(name).toHaveValue('');

  // Made private, with the song.
  expect((await ownPlaylists()).data).toEqual([
    expect.objectContaining({ name: playlistName, isPublic: false, songIds: [songId] }),
  ]);
});
