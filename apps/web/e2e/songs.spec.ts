import { expect, type Page, test } from '@playwright/test';
import { ADMIN } from '../playwright.config';
import { apiCall, apiLogin, uniqueSuffix } from './api';
import { cell, signIn, signOut } from './steps';

/**
 * The songs list as a view one can keep and share (search, genre, sort, page and page size in
 * the address, through a reload and Back), its sortable columns and page sizes, genre
 * suggestions from GET /genres, "Add to playlist" from the list and from a song's page, and
 * artist names that link to the artist. The records are made through the API with
 * names of their own; the catalogue holds other specs' songs too, so every view is narrowed by
 * a search for this file's suffix.
 */
const suffix = uniqueSuffix();
const PREFIX = `Songs ${suffix}`;
const GENRE = `Spec Genre ${suffix}`;
const OTHER_GENRE = `Spec Other ${suffix}`;
const BAND = `Spec Band ${suffix}`;
const LISTENER = {
  username: `Songs Listener ${suffix}`,
  email: `songs-listener-${suffix}@e2e.test`,
  password: 'songs-password-1',
};
const MIX = `Spec Mix ${suffix}`;
const ROAD = `Spec Road ${suffix}`;
const SEARCH_LABEL = 'Search songs by title, album or artist';

interface Track {
  id: string;
  title: string;
  year: number;
  duration: number;
}

const made = {
  artistId: '',
  /** 12 songs of GENRE; years and lengths in an order of their own, unlike the titles'. */
  tracks: [] as Track[],
  /** 3 songs of OTHER_GENRE. */
  others: [] as Track[],
  mix: '',
  road: '',
  listenerToken: '',
};

test.beforeAll(async () => {
  const admin = await apiLogin(ADMIN);
  const artist = await apiCall<{ id: string }>('POST', '/artists', admin, { name: BAND });
  made.artistId = artist.id;
  const create = async (title: string, genre: string, year: number, duration: number) => {
    const song = await apiCall<{ id: string }>('POST', '/songs', admin, {
      title,
      genre,
      releaseYear: year,
      duration,
      artistIds: [artist.id],
    });
    return { id: song.id, title, year, duration };
  };
  for (let n = 1; n <= 12; n++) {
    // 5 and 7 are prime to 12: each gives every year and every length once, in a shuffled order.
    const title = `${PREFIX} Track ${String(n).padStart(2, '0')}`;
    made.tracks.push(await create(title, GENRE, 1990 + ((n * 5) % 12), 120 + ((n * 7) % 12) * 10));
  }
  for (let n = 1; n <= 3; n++) made.others.push(await create(`${PREFIX} Other ${n}`, OTHER_GENRE, 2020, 200));
  await apiCall('POST', '/users', null, LISTENER);
  made.listenerToken = await apiLogin(LISTENER);
  made.mix = (await apiCall<{ id: string }>('POST', '/playlists', made.listenerToken, { name: MIX })).id;
  made.road = (await apiCall<{ id: string }>('POST', '/playlists', made.listenerToken, { name: ROAD })).id;
});

const track = (n: number) => made.tracks[n - 1]!;
const titles = (tracks: Track[]) => tracks.map((t) => t.title);
const byYear = () => [...made.tracks].sort((a, b) => a.year - b.year);
const byLength = () => [...made.tracks].sort((a, b) => a.duration - b.duration);

/** The address's query now. */
const query = (page: Page) => new URL(page.url()).searchParams;
const titleCells = (page: Page) => page.locator('main tbody td[data-label="Title"]');
const rows = (page: Page) => page.locator('main table tbody tr');

async function searchFor(page: Page, term: string) {
  await page.getByLabel(SEARCH_LABEL).fill(term);
  await expect.poll(() => query(page).get('search')).toBe(term);
}

test('search, genre, sort, page and page size are in the address, through a reload and Back', async ({
  page,
}) => {
  await signIn(page, ADMIN);
  await page.goto('/songs');
  await searchFor(page, PREFIX);
  const genre = page.getByLabel('Genre', { exact: true });
  await genre.fill(GENRE);
  await genre.press('Enter');
  await expect.poll(() => query(page).get('genre')).toBe(GENRE);
  await expect(titleCells(page)).toHaveText(titles(made.tracks)); // by title, the default

  // Each step waits for the address, so each is a step of history of its own.
  const year = page.getByRole('button', { name: 'Year', exact: true });
  await year.click();
  await expect.poll(() => query(page).get('sort')).toBe('releaseYear');
  await year.click();
  await expect.poll(() => query(page).get('sort')).toBe('-releaseYear');
  await expect(page.getByRole('columnheader', { name: 'Year' })).toHaveAttribute('aria-sort', 'descending');
  await page.getByLabel('Rows per page').selectOption('10');
  await expect.poll(() => query(page).get('limit')).toBe('10');
  await expect(page.getByText('Page 1 of 2 · 12 items')).toBeVisible();
  await page.getByRole('button', { name: 'Next →' }).click();
  await expect.poll(() => query(page).get('page')).toBe('2');
  const lastTwo = titles(byYear().slice(0, 2).reverse());
  await expect(titleCells(page)).toHaveText(lastTwo);
  await expect(page.getByText('Page 2 of 2 · 12 items')).toBeVisible();
  expect(Object.fromEntries(query(page))).toEqual({
    search: PREFIX,
    genre: GENRE,
    sort: '-releaseYear',
    page: '2',
    limit: '10',
  });

  /** The view of page 2, as built above. */
  const pageTwo = async (when: string) => {
    await expect(page.getByLabel(SEARCH_LABEL), when).toHaveValue(PREFIX);
    await expect(genre, when).toHaveValue(GENRE);
    await expect(page.getByRole('columnheader', { name: 'Year' }), when).toHaveAttribute(
      'aria-sort',
      'descending',
    );
    await expect(page.getByLabel('Rows per page'), when).toHaveValue('10');
    await expect(page.getByText('Page 2 of 2 · 12 items'), when).toBeVisible();
    await expect(titleCells(page), when).toHaveText(lastTwo);
  };
  await page.reload();
  await pageTwo('after a reload');
  // Into a song and Back: the list is where it was.
  await page.getByRole('link', { name: lastTwo[0], exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: lastTwo[0] })).toBeVisible();
  await page.goBack();
  await pageTwo('back from a song');

  // Back steps through pages and sorts, not through what was typed.
  await page.goBack();
  await expect(page.getByText('Page 1 of 2 · 12 items')).toBeVisible();
  await expect(titleCells(page)).toHaveText(titles(byYear().reverse().slice(0, 10)));
  await page.goBack(); // 20 rows a page again
  await expect(page.getByLabel('Rows per page')).toHaveValue('20');
  await expect(rows(page)).toHaveCount(12);
  await page.goBack(); // year, ascending
  await expect(page.getByRole('columnheader', { name: 'Year' })).toHaveAttribute('aria-sort', 'ascending');
  await expect(titleCells(page)).toHaveText(titles(byYear()));
  await page.goBack(); // the search and the genre as typed, by title
  await expect(page.getByRole('columnheader', { name: 'Title' })).toHaveAttribute('aria-sort', 'ascending');
  await expect(page.getByRole('columnheader', { name: 'Year' })).not.toHaveAttribute('aria-sort');
  await expect(page.getByLabel(SEARCH_LABEL)).toHaveValue(PREFIX);
  await expect(genre).toHaveValue(GENRE);
  await expect(titleCells(page)).toHaveText(titles(made.tracks));
  await expect.poll(() => Object.fromEntries(query(page))).toEqual({ search: PREFIX, genre: GENRE });
});

test('a column header sorts the list, ascending then descending, and says so', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto('/songs');
  await searchFor(page, `${PREFIX} Track`);
  const title = page.getByRole('columnheader', { name: 'Title' });
  const length = page.getByRole('columnheader', { name: 'Length' });
  await expect(title).toHaveAttribute('aria-sort', 'ascending');
  await expect(titleCells(page)).toHaveText(titles(made.tracks));

  await page.getByRole('button', { name: 'Length', exact: true }).click();
  await expect(length).toHaveAttribute('aria-sort', 'ascending');
  await expect(title).not.toHaveAttribute('aria-sort');
  await expect(titleCells(page)).toHaveText(titles(byLength()));
  await expect.poll(() => query(page).get('sort')).toBe('duration');

  await page.getByRole('button', { name: 'Length', exact: true }).click();
  await expect(length).toHaveAttribute('aria-sort', 'descending');
  await expect(titleCells(page)).toHaveText(titles(byLength().reverse()));
  await expect.poll(() => query(page).get('sort')).toBe('-duration');

  await page.getByRole('button', { name: 'Title', exact: true }).click();
  await expect(title).toHaveAttribute('aria-sort', 'ascending');
  await expect(titleCells(page)).toHaveText(titles(made.tracks));
  await expect.poll(() => query(page).get('sort')).toBeNull(); // the default order: a plain address
});

test('a page size of 10 shows 10 rows', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto('/songs');
  await searchFor(page, PREFIX);
  await expect(rows(page)).toHaveCount(15);
  await page.getByLabel('Rows per page').selectOption('10');
  await expect(rows(page)).toHaveCount(10);
  await expect(page.getByText('Page 1 of 2 · 15 items')).toBeVisible();
  await page.getByRole('button', { name: 'Next →' }).click();
  await expect(rows(page)).toHaveCount(5);
  await expect.poll(() => query(page).get('limit')).toBe('10');
});

test('the genre filter suggests the genres in use, with their songs, and filters on one', async ({
  page,
}) => {
  await signIn(page, ADMIN);
  await page.goto('/songs');
  await searchFor(page, PREFIX);
  const genre = page.getByLabel('Genre', { exact: true });
  const listId = await genre.getAttribute('list');
  const suggestions = page.locator(`datalist[id="${listId}"] option`);
  const asked = page.waitForRequest(
    (request) =>
      new URL(request.url()).pathname === '/api/trpc/genres.list' && request.url().includes(suffix),
  );
  await genre.fill(suffix);
  await asked;
  await expect(suggestions).toHaveCount(2);
  await expect(page.locator(`datalist[id="${listId}"] option[value="${GENRE}"]`)).toHaveAttribute(
    'label',
    `${GENRE} (12 songs)`,
  );
  await expect(page.locator(`datalist[id="${listId}"] option[value="${OTHER_GENRE}"]`)).toHaveAttribute(
    'label',
    `${OTHER_GENRE} (3 songs)`,
  );
  // Half a name filters nothing yet.
  await expect(rows(page)).toHaveCount(15);
  await expect.poll(() => query(page).get('genre')).toBeNull();

  // Chosen (the box then holds the suggestion; here in other letters): the list follows at once.
  await genre.fill(OTHER_GENRE.toLowerCase());
  await expect.poll(() => query(page).get('genre')).toBe(OTHER_GENRE);
  await expect(titleCells(page)).toHaveText(titles(made.others));
  await genre.fill('');
  await expect.poll(() => query(page).get('genre')).toBeNull();
  await expect(rows(page)).toHaveCount(15);
});

test('a listener adds a song to a playlist from the list, and is told when it is already there', async ({
  page,
}) => {
  const first = track(1);
  const second = track(2);
  await signIn(page, LISTENER);
  await page.goto('/songs');
  await searchFor(page, first.title);
  await page.getByRole('button', { name: `Add to playlist: ${first.title}` }).click();
  const dialog = page.getByRole('dialog', { name: `Add “${first.title}” to a playlist` });
  const choice = (name: string) =>
    dialog.getByRole('list', { name: 'Your playlists' }).getByRole('listitem').filter({ hasText: name });
  await dialog.getByRole('button', { name: `Add to ${MIX}` }).click();
  await expect(dialog.getByRole('status')).toHaveText(`Added “${first.title}” to “${MIX}”.`);
  await expect(choice(MIX)).toContainText('Already in this playlist');
  await expect(choice(ROAD).getByRole('button', { name: `Add to ${ROAD}` })).toBeVisible();
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toBeHidden();

  // Opened again: the playlist that has it says so.
  await page.getByRole('button', { name: `Add to playlist: ${first.title}` }).click();
  await expect(choice(MIX)).toContainText('Already in this playlist');
  await expect(choice(MIX).getByRole('button')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // Added elsewhere meanwhile (another tab): the API's 409, in words.
  await searchFor(page, second.title);
  await page.getByRole('button', { name: `Add to playlist: ${second.title}` }).click();
  const secondDialog = page.getByRole('dialog', { name: `Add “${second.title}” to a playlist` });
  const road = secondDialog.getByRole('listitem').filter({ hasText: ROAD });
  await expect(road.getByRole('button', { name: `Add to ${ROAD}` })).toBeVisible();
  await apiCall('POST', `/playlists/${made.road}/songs`, made.listenerToken, { songId: second.id });
  await road.getByRole('button', { name: `Add to ${ROAD}` }).click();
  const refusal = secondDialog.getByRole('alert');
  await expect(refusal).toContainText(`Not added to “${ROAD}”.`);
  await expect(refusal).toContainText('already in this playlist');
  await expect(road).toContainText('Already in this playlist');
  await page.keyboard.press('Escape');

  // The playlist holds it.
  await page.goto(`/playlists/${made.mix}`);
  await expect(page.getByTestId('playlist-song').filter({ hasText: first.title })).toBeVisible();
});

test('a listener adds a song to a playlist from the song’s page', async ({ page }) => {
  const song = track(3);
  await signIn(page, LISTENER);
  await page.goto(`/songs/${song.id}`);
  await expect(page.getByRole('heading', { level: 1, name: song.title })).toBeVisible();
  const open = page.getByRole('button', { name: 'Add to playlist', exact: true });
  await open.click();
  const dialog = page.getByRole('dialog', { name: `Add “${song.title}” to a playlist` });
  await dialog.getByRole('button', { name: `Add to ${ROAD}` }).click();
  await expect(dialog.getByRole('status')).toHaveText(`Added “${song.title}” to “${ROAD}”.`);
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(open).toBeFocused();

  await open.click();
  await expect(dialog.getByRole('listitem').filter({ hasText: ROAD })).toContainText(
    'Already in this playlist',
  );
  await page.keyboard.press('Escape');

  await page.goto(`/playlists/${made.road}`);
  await expect(page.getByTestId('playlist-song').filter({ hasText: song.title })).toBeVisible();
});

test('artist names link to the artist, for an admin and for a listener', async ({ page }) => {
  const song = track(4);
  await signIn(page, ADMIN);
  await page.goto('/songs');
  await searchFor(page, song.title);
  const row = page.getByRole('row', { name: new RegExp(song.title) });
  const link = row.getByRole('link', { name: BAND, exact: true });
  await expect(link).toHaveAttribute('href', `/artists/${made.artistId}`);
  await link.click();
  await expect(page.getByRole('heading', { level: 1, name: BAND })).toBeVisible();
  // On the song's page too.
  await page.goto(`/songs/${song.id}`);
  await expect(page.getByRole('link', { name: BAND, exact: true })).toHaveAttribute(
    'href',
    `/artists/${made.artistId}`,
  );

  await signOut(page);
  await signIn(page, LISTENER);
  await page.goto('/songs');
  await searchFor(page, song.title);
  const listenerRow = page.getByRole('row', { name: new RegExp(song.title) });
  await expect(cell(listenerRow, 'Artists')).toHaveText(BAND);
  await expect(listenerRow.getByRole('link', { name: BAND, exact: true })).toHaveAttribute(
    'href',
    `/artists/${made.artistId}`,
  );
});
