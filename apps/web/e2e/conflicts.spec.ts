import { expect, test } from '@playwright/test';
import { ADMIN } from '../playwright.config';
import { apiCall, apiLogin, uniqueSuffix } from './api';
import { signIn } from './steps';

/**
 * Two editors of one song (version 1.1): the console opens the song's edit form, someone else
 * changes the title through the API meanwhile, and the console's save is refused (If-Match) with
 * a notice that says what changed and offers to save over it or to take their version.
 */
const suffix = uniqueSuffix();

interface Song {
  id: string;
  title: string;
}

let token: string;
test.beforeAll(async () => {
  token = await apiLogin(ADMIN);
});

test('a song changed meanwhile: the notice says what changed; save mine, or reload theirs', async ({
  page,
}) => {
  const original = `Conflict ${suffix} original`;
  const song = await apiCall<Song>('POST', '/songs', token, { title: original, duration: 200 });

  await signIn(page, ADMIN);
  await page.goto(`/songs/${song.id}`);
  await expect(page.getByRole('heading', { level: 1, name: original })).toBeVisible();
  const form = page.getByRole('region', { name: 'Edit' });
  const title = form.getByLabel('Title');
  await expect(title).toHaveValue(original);

  // Someone else renames it while the form is open.
  const theirs = `Conflict ${suffix} theirs`;
  await apiCall('PATCH', `/songs/${song.id}`, token, { title: theirs });

  const mine = `Conflict ${suffix} mine`;
  await title.fill(mine);
  await form.getByRole('button', { name: 'Save song' }).click();
  const notice = form
    .getByRole('alert')
    .filter({ hasText: 'Someone changed this song while you were editing.' });
  await expect(notice).toBeVisible();
  const titleChange = notice.getByRole('listitem').filter({ hasText: 'Title' });
  await expect(titleChange).toContainText(original);
  await expect(titleChange).toContainText(theirs);
  // Only the title changed.
  await expect(notice.getByRole('listitem')).toHaveCount(1);
  // What was typed is kept.
  await expect(title).toHaveValue(mine);

  await notice.getByRole('button', { name: 'Save mine anyway' }).click();
  await expect(page.getByRole('heading', { level: 1, name: mine })).toBeVisible();
  await expect(form.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  await expect(form.getByRole('alert')).toHaveCount(0);
  expect((await apiCall<Song>('GET', `/songs/${song.id}`, token)).title).toBe(mine);

  // Again, and this time take their version.
  const theirsAgain = `Conflict ${suffix} theirs again`;
  await apiCall('PATCH', `/songs/${song.id}`, token, { title: theirsAgain });
  await form.getByLabel('Title').fill(`Conflict ${suffix} mine again`);
  await form.getByRole('button', { name: 'Save song' }).click();
  const again = form
    .getByRole('alert')
    .filter({ hasText: 'Someone changed this song while you were editing.' });
  const change = again.getByRole('listitem').filter({ hasText: 'Title' });
  await expect(change).toContainText(mine);
  await expect(change).toContainText(theirsAgain);

  await again.getByRole('button', { name: 'Reload their version' }).click();
  await expect(form.getByRole('alert')).toHaveCount(0);
  await expect(form.getByLabel('Title')).toHaveValue(theirsAgain);
  await expect(page.getByRole('heading', { level: 1, name: theirsAgain })).toBeVisible();
  expect((await apiCall<Song>('GET', `/songs/${song.id}`, token)).title).toBe(theirsAgain);

  await apiCall('DELETE', `/songs/${song.id}`, token);
});

test('save mine anyway sends only what I changed: a field they changed and I did not stays theirs', async ({
  page,
}) => {
  const title = `Merge ${suffix}`;
  const song = await apiCall<Song>('POST', '/songs', token, { title, genre: 'Rock', duration: 200 });

  await signIn(page, ADMIN);
  await page.goto(`/songs/${song.id}`);
  const form = page.getByRole('region', { name: 'Edit' });
  await expect(form.getByLabel('Title')).toHaveValue(title);

  // They rename it; I only change the genre.
  const theirs = `${title} theirs`;
  await apiCall('PATCH', `/songs/${song.id}`, token, { title: theirs });
  await form.getByLabel('Genre').fill('Jazz');
  await form.getByRole('button', { name: 'Save song' }).click();
  const notice = form
    .getByRole('alert')
    .filter({ hasText: 'Someone changed this song while you were editing.' });
  await expect(notice.getByRole('listitem')).toHaveCount(1);
  await notice.getByRole('button', { name: 'Save mine anyway' }).click();
  await expect(form.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();

  const saved = await apiCall<Song & { genre: string | null }>('GET', `/songs/${song.id}`, token);
  expect(saved.title).toBe(theirs);
  expect(saved.genre).toBe('Jazz');
  // The form shows what was saved: their title, my genre.
  await expect(form.getByLabel('Title')).toHaveValue(theirs);
  await expect(form.getByLabel('Genre')).toHaveValue('Jazz');
  await expect(page.getByRole('heading', { level: 1, name: theirs })).toBeVisible();

  await apiCall('DELETE', `/songs/${song.id}`, token);
});

interface Playlist {
  id: string;
  name: string;
  description: string | null;
  songIds: string[];
}

test('a playlist: songs changed meanwhile are kept and the details save; a rename meanwhile is a notice', async ({
  page,
}) => {
  const songs = await Promise.all(
    [1, 2, 3].map((n) =>
      apiCall<Song>('POST', '/songs', token, { title: `Kept ${suffix} ${n}`, duration: 100 }),
    ),
  );
  const name = `Details ${suffix}`;
  const playlist = await apiCall<Playlist>('POST', '/playlists', token, {
    name,
    songIds: [songs[0]!.id, songs[1]!.id],
  });

  await signIn(page, ADMIN);
  await page.goto(`/playlists/${playlist.id}`);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();

  // Songs change on this page just before the form opens (the remove may not be in yet) and
  // through the API while it is open: neither is in this form, so its save goes through.
  await page.getByRole('button', { name: `Remove Kept ${suffix} 1` }).click();
  await page.getByRole('button', { name: 'Edit details' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit playlist' });
  await apiCall('POST', `/playlists/${playlist.id}/songs`, token, { songId: songs[2]!.id });
  await edit.getByLabel('Name').fill(`${name} renamed`);
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { level: 1, name: `${name} renamed` })).toBeVisible();
  await expect(edit).toHaveCount(0);
  const saved = await apiCall<Playlist>('GET', `/playlists/${playlist.id}`, token);
  expect(saved.name).toBe(`${name} renamed`);
  expect(saved.songIds).toEqual([songs[1]!.id, songs[2]!.id]);

  // A rename meanwhile is a change to this form's own field: the notice names it.
  await page.getByRole('button', { name: 'Edit details' }).click();
  await apiCall('PUT', `/playlists/${playlist.id}`, token, { name: `${name} theirs` });
  await edit.getByLabel('Description').fill('Mine');
  await edit.getByRole('button', { name: 'Save' }).click();
  const notice = edit
    .getByRole('alert')
    .filter({ hasText: 'Someone changed this playlist while you were editing.' });
  await expect(notice.getByRole('listitem')).toHaveCount(1);
  await expect(notice.getByRole('listitem')).toContainText(`${name} theirs`);
  await notice.getByRole('button', { name: 'Save mine anyway' }).click();
  await expect(edit).toHaveCount(0);
  const mine = await apiCall<Playlist>('GET', `/playlists/${playlist.id}`, token);
  expect(mine.description).toBe('Mine');
  // Only the description was mine to save: their name stays.
  expect(mine.name).toBe(`${name} theirs`);

  await apiCall('DELETE', `/playlists/${playlist.id}`, token);
  await Promise.all(songs.map((song) => apiCall('DELETE', `/songs/${song.id}`, token)));
});
