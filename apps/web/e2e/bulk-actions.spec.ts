import { expect, type Page, test } from '@playwright/test';
import { ADMIN } from '../playwright.config';
import { apiCall, apiLogin, uniqueSuffix } from './api';
import { mainMenu, signIn } from './steps';

/**
 * Actions on many songs from the songs list: pick rows, add them to a playlist, set their genre
 * or delete them, and take the whole action back with one Undo. What the API holds is read
 * through the API after each step. Each test makes its own songs, found by a search word of
 * their own, so the list shows only them.
 */
interface SongRecord {
  id: string;
  title: string;
  genre: string | null;
}

let admin = '';
test.beforeAll(async () => {
  admin = await apiLogin(ADMIN);
});

/** Songs titled `<word> 1`…, by an artist of their own; `genres` gives each its genre. */
async function makeSongs(word: string, genres: Array<string | null>, artistUserId?: string) {
  const artist = await apiCall<{ id: string }>('POST', '/artists', admin, {
    name: `${word} Band`,
    ...(artistUserId ? { userId: artistUserId } : {}),
  });
  const songs: SongRecord[] = [];
  for (const [index, genre] of genres.entries()) {
    songs.push(
      await apiCall<SongRecord>('POST', '/songs', admin, {
        title: `${word} ${index + 1}`,
        duration: 120 + index,
        genre,
        artistIds: [artist.id],
      }),
    );
  }
  return songs;
}

const song = (id: string) => apiCall<SongRecord>('GET', `/songs/${id}`, admin);

/** The songs list showing only the songs of `word`. */
async function listOf(page: Page, word: string, count: number) {
  await page.goto(`/songs?search=${encodeURIComponent(word)}`);
  await expect(page.locator('main tbody tr')).toHaveCount(count);
}

const pick = (page: Page, title: string) => page.getByRole('checkbox', { name: `Select “${title}”` }).check();
const bar = (page: Page) => page.getByRole('region', { name: 'Selected songs' });
const outcome = (page: Page) => bar(page).locator('.bulk-outcome');

test('many songs go into a playlist in one step, those already in it once, and one Undo takes them out', async ({
  page,
}) => {
  const word = `Bulkadd${uniqueSuffix()}`;
  const [first, second, third] = await makeSongs(word, [null, null, null]);
  const mix = await apiCall<{ id: string }>('POST', '/playlists', admin, {
    name: `${word} Mix`,
    songIds: [second!.id],
  });
  await signIn(page, ADMIN);
  await listOf(page, word, 3);
  // The whole page, picked from the header.
  await page.getByRole('checkbox', { name: 'Select every row on this page' }).check();
  await expect(bar(page)).toContainText('3 songs selected');
  await bar(page).getByRole('button', { name: 'Add to playlist' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add 3 songs to a playlist' });
  await dialog.getByRole('button', { name: `Add to ${word} Mix` }).click();
  await expect(dialog).toBeHidden();
  await expect(outcome(page)).toContainText(`Added 2 songs to “${word} Mix”.`);
  await expect(outcome(page)).toBeFocused();
  expect((await apiCall<{ songIds: string[] }>('GET', `/playlists/${mix.id}`, admin)).songIds).toEqual([
    second!.id,
    first!.id,
    third!.id,
  ]);
  // Picked rows are let go once the action is done.
  await expect(page.getByRole('checkbox', { name: `Select “${first!.title}”` })).not.toBeChecked();

  await outcome(page).getByRole('button', { name: 'Undo' }).click();
  await expect(outcome(page)).toContainText(`Undone: 2 songs to “${word} Mix” taken out again.`);
  expect((await apiCall<{ songIds: string[] }>('GET', `/playlists/${mix.id}`, admin)).songIds).toEqual([
    second!.id,
  ]);
});

test('a genre set on many songs is saved in the catalogue’s spelling, one changed meanwhile is left, and Undo puts each back', async ({
  page,
}) => {
  const word = `Bulkgenre${uniqueSuffix()}`;
  const genre = `Zydeco ${word}`;
  const [jazz, none, elsewhere] = await makeSongs(word, ['Jazz', null, genre]);
  const changedMeanwhile = await makeSongs(`${word}x`, ['Blues']);
  await signIn(page, ADMIN);
  await listOf(page, word, 4);
  await pick(page, jazz!.title);
  await pick(page, none!.title);
  await pick(page, changedMeanwhile[0]!.title);
  // Changed by someone else after it was listed: its write is refused, not overwritten.
  await apiCall('PATCH', `/songs/${changedMeanwhile[0]!.id}`, admin, { album: 'Changed meanwhile' });
  await expect(bar(page)).toContainText('3 songs selected');
  await bar(page).getByRole('button', { name: 'Set genre' }).click();
  const dialog = page.getByRole('dialog', { name: 'Set the genre of 3 songs' });
  await dialog.getByLabel('Genre').fill(genre.toLowerCase());
  await dialog.getByRole('button', { name: 'Set genre' }).click();
  await expect(outcome(page)).toContainText(`Set the genre of 2 songs to “${genre}”.`);
  await expect(outcome(page)).toContainText(
    `1 song could not be changed: “${changedMeanwhile[0]!.title}” changed since`,
  );
  expect((await song(jazz!.id)).genre).toBe(genre);
  expect((await song(none!.id)).genre).toBe(genre);
  expect((await song(changedMeanwhile[0]!.id)).genre).toBe('Blues');
  expect((await song(elsewhere!.id)).genre).toBe(genre);

  await outcome(page).getByRole('button', { name: 'Undo' }).click();
  await expect(outcome(page)).toContainText('Undone: 2 songs back to their genre.');
  expect((await song(jazz!.id)).genre).toBe('Jazz');
  expect((await song(none!.id)).genre).toBeNull();
});

test('deleted songs wait for their Undo: undone they stay, otherwise they go, also when the page is left', async ({
  page,
}) => {
  const word = `Bulkdel${uniqueSuffix()}`;
  const [one, two, three, four] = await makeSongs(word, [null, null, null, null]);
  await signIn(page, ADMIN);
  await listOf(page, word, 4);
  await pick(page, one!.title);
  await pick(page, two!.title);
  await bar(page).getByRole('button', { name: 'Delete' }).click();
  await expect(outcome(page)).toContainText('2 songs will be deleted in 10 seconds.');
  await expect(page.locator('main tbody tr.row-leaving')).toHaveCount(2);
  await outcome(page).getByRole('button', { name: 'Undo' }).click();
  await expect(outcome(page)).toContainText('Undone: 2 songs kept.');
  await expect(page.locator('main tbody tr.row-leaving')).toHaveCount(0);
  // Nothing was sent: both are still there, after the undo window too.
  await page.waitForTimeout(10_500);
  expect((await song(one!.id)).id).toBe(one!.id);
  expect((await song(two!.id)).id).toBe(two!.id);

  // Undone, they are picked again: deleted this time, once the window closes.
  await expect(bar(page)).toContainText('2 songs selected');
  await bar(page).getByRole('button', { name: 'Delete' }).click();
  await expect(outcome(page)).toContainText('Deleted 2 songs.', { timeout: 20_000 });
  await expect(page.locator('main tbody tr')).toHaveCount(2);
  for (const id of [one!.id, two!.id]) {
    await expect(apiCall('GET', `/songs/${id}`, admin)).rejects.toThrow(/404/);
  }

  // Leaving the page sends the deletes at once: for another page of the console, and for
  // another document (the tab's `pagehide`).
  const gone = (id: string) =>
    expect(async () => {
      await expect(apiCall('GET', `/songs/${id}`, admin)).rejects.toThrow(/404/);
    }).toPass({ timeout: 5_000 });
  await pick(page, three!.title);
  await bar(page).getByRole('button', { name: 'Delete' }).click();
  await expect(outcome(page)).toContainText('1 song will be deleted');
  await (await mainMenu(page)).getByRole('link', { name: 'Artists', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Artists' })).toBeVisible();
  await gone(three!.id);
  // What became of them is said on the page the user went to.
  await expect(page.locator('.toasts')).toContainText('Deleted 1 song.');
  await listOf(page, word, 1);
  await pick(page, four!.title);
  await bar(page).getByRole('button', { name: 'Delete' }).click();
  await expect(outcome(page)).toContainText('1 song will be deleted');
  await page.goto('/artists');
  await gone(four!.id);
});

test('an artist may add anyone’s songs to a playlist but change or delete only their own', async ({
  page,
}) => {
  const suffix = uniqueSuffix();
  const word = `Bulkartist${suffix}`;
  const artistUser = {
    username: `Bulk Artist ${suffix}`,
    email: `bulk-artist-${suffix}@e2e.test`,
    password: 'bulk-password-1',
  };
  const account = await apiCall<{ id: string }>('POST', '/users', admin, { ...artistUser, role: 'artist' });
  const [own] = await makeSongs(word, [null], account.id);
  const [theirs] = await makeSongs(`${word}z`, [null]);
  await signIn(page, artistUser);
  await page.goto(`/songs?tab=all&search=${word}`);
  await expect(page.locator('main tbody tr')).toHaveCount(2);
  await pick(page, own!.title);
  await expect(bar(page).getByRole('button', { name: 'Delete' })).toBeVisible();
  await pick(page, theirs!.title);
  await expect(bar(page).getByRole('button', { name: 'Delete' })).toHaveCount(0);
  await expect(bar(page).getByRole('button', { name: 'Set genre' })).toHaveCount(0);
  await expect(bar(page)).toContainText('Only your own songs can be changed or deleted.');

  // A new playlist made with both in it; Undo deletes it again.
  await bar(page).getByRole('button', { name: 'Add to playlist' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add 2 songs to a playlist' });
  await dialog.getByLabel('New playlist').fill(`${word} Picks`);
  await dialog.getByRole('button', { name: 'Create and add' }).click();
  await expect(outcome(page)).toContainText(`Created “${word} Picks” with 2 songs in it.`);
  const token = await apiLogin(artistUser);
  const made = await apiCall<{ data: Array<{ id: string; songIds: string[] }> }>('GET', '/playlists', token);
  expect(made.data).toHaveLength(1);
  expect(made.data[0]!.songIds).toEqual([own!.id, theirs!.id]);
  await outcome(page).getByRole('button', { name: 'Undo' }).click();
  await expect(outcome(page)).toContainText(`Undone: “${word} Picks” is deleted.`);
  expect((await apiCall<{ data: unknown[] }>('GET', '/playlists', token)).data).toHaveLength(0);
});
