import { expect, type Locator, type Page, test } from '@playwright/test';
import { ADMIN } from '../playwright.config';
import { apiCall, apiLogin, uniqueSuffix } from './api';
import { seriousViolations } from './axe';
import { screenshot, signIn } from './steps';

/**
 * The header's search (an ARIA combobox whose suggestions are grouped by kind): results as one
 * types, worked from the keyboard alone, Enter for the full results best match first, `/` to
 * reach it, accents folded, the songs list's "Did you mean" for a typo, and on a phone behind
 * its Search button. The records are made through the API with this file's suffix in every
 * name, so a search for the suffix finds them alone in the shared database.
 */
const SUFFIX = uniqueSuffix();
const ARTIST = `Beyoncé ${SUFFIX}`;
const ALBUM = `Harbour Lights ${SUFFIX}`;
/** In a playlist, so it ranks above LANTERN among the matches of SUFFIX (and after it by title). */
const LIGHTHOUSE = `Lighthouse ${SUFFIX}`;
const LANTERN = `Lantern ${SUFFIX}`;
const MIX = `Lighthouse Mix ${SUFFIX}`;
const ids = { lighthouse: '', playlist: '', artist: '' };

test.beforeAll(async () => {
  const admin = await apiLogin(ADMIN);
  const artist = await apiCall<{ id: string }>('POST', '/artists', admin, { name: ARTIST });
  const songs: Record<string, string> = {};
  for (const title of [LIGHTHOUSE, LANTERN]) {
    const song = await apiCall<{ id: string }>('POST', '/songs', admin, {
      title,
      album: ALBUM,
      duration: 200,
      artistIds: [artist.id],
    });
    songs[title] = song.id;
  }
  const playlist = await apiCall<{ id: string }>('POST', '/playlists', admin, { name: MIX, isPublic: true });
  await apiCall('POST', `/playlists/${playlist.id}/songs`, admin, { songId: songs[LIGHTHOUSE] });
  Object.assign(ids, { lighthouse: songs[LIGHTHOUSE], playlist: playlist.id, artist: artist.id });
});

/** The header's search box, revealed first where it folds behind its button (phones). */
async function searchBox(page: Page): Promise<Locator> {
  const toggle = page.getByRole('banner').getByRole('button', { name: 'Search', exact: true });
  if ((await toggle.isVisible()) && (await toggle.getAttribute('aria-expanded')) !== 'true') {
    await toggle.click();
  }
  return page.getByRole('combobox', { name: 'Search the catalogue' });
}

const suggestions = (page: Page) => page.getByRole('listbox', { name: 'Search suggestions' });
const group = (page: Page, name: string) => suggestions(page).getByRole('group', { name, exact: true });
const query = (page: Page) => new URL(page.url()).searchParams;
const titles = (page: Page) => page.locator('main tbody td[data-label="Title"]');

/** Every call the page makes to `search.find`, by its tRPC path. */
function recordSearches(page: Page): string[] {
  const calls: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/api/trpc/') && pathname.includes('search.find')) calls.push(pathname);
  });
  return calls;
}

test('typing shows the results grouped by kind, each saying what it is', async ({ page }) => {
  const searches = recordSearches(page);
  await signIn(page, ADMIN);
  await page.goto('/playlists');
  await expect(page.getByRole('heading', { level: 1, name: 'Playlists' })).toBeVisible();
  const box = await searchBox(page);
  await expect(box).toHaveAttribute('aria-expanded', 'false');
  expect(searches).toEqual([]); // nothing is asked until something is typed

  await box.fill(SUFFIX);
  await expect(box).toHaveAttribute('aria-expanded', 'true');
  await expect(box).toHaveAttribute('aria-controls', (await suggestions(page).getAttribute('id'))!);
  await expect(group(page, 'Songs').getByRole('option')).toHaveText([
    new RegExp(`^${LIGHTHOUSE}by ${ARTIST} · ${ALBUM}$`),
    new RegExp(`^${LANTERN}by ${ARTIST} · ${ALBUM}$`),
  ]);
  await expect(group(page, 'Artists').getByRole('option', { name: ARTIST })).toBeVisible();
  await expect(group(page, 'Albums').getByRole('option', { name: ALBUM })).toHaveAccessibleDescription(
    '2 songs',
  );
  await expect(group(page, 'Playlists').getByRole('option', { name: MIX })).toHaveAccessibleDescription(
    '1 song',
  );
  // The groups are named by visible labels, in this order.
  await expect(suggestions(page).locator('.matches-group')).toHaveText([
    'Songs',
    'Artists',
    'Albums',
    'Playlists',
  ]);
  const status = page.getByRole('banner').getByRole('status');
  await expect(status).toHaveText('5 results: 2 songs, 1 artist, 1 album, 1 playlist.');
  await expect(suggestions(page).locator('bdi').first()).toHaveText(LIGHTHOUSE);
  // Debounced: the text filled in at once costs one call.
  expect(searches.length).toBe(1);
  await screenshot(page, `search-results-${test.info().project.name}`);

  // A click (a tap) on an album opens the songs list searched for its name.
  await group(page, 'Albums').getByRole('option', { name: ALBUM }).click();
  await expect.poll(() => Object.fromEntries(query(page))).toEqual({ search: ALBUM });
  await expect(titles(page)).toHaveText([LANTERN, LIGHTHOUSE]);
});

test('keyboard only: ArrowDown and Enter open a song; Escape closes, then clears', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto('/playlists');
  const box = await searchBox(page);
  await box.focus();
  await page.keyboard.type(`lighthouse ${SUFFIX}`);
  const options = suggestions(page).getByRole('option');
  await expect(options).toHaveText([new RegExp(`^${LIGHTHOUSE}`), new RegExp(`^${MIX}`)]);
  await expect(box).not.toHaveAttribute('aria-activedescendant', /./);

  // Down runs on across the groups (Songs, then Playlists) and wraps; Up goes back.
  await page.keyboard.press('ArrowDown');
  await expect(box).toHaveAttribute('aria-activedescendant', (await options.nth(0).getAttribute('id'))!);
  await page.keyboard.press('ArrowDown');
  await expect(box).toHaveAttribute('aria-activedescendant', (await options.nth(1).getAttribute('id'))!);
  await expect(options.nth(1)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ArrowUp');
  await expect(options.nth(0)).toHaveAttribute('aria-selected', 'true');

  // Escape closes the list and keeps the text; a second one clears it.
  await page.keyboard.press('Escape');
  await expect(box).toHaveAttribute('aria-expanded', 'false');
  await expect(box).toHaveValue(`lighthouse ${SUFFIX}`);
  await page.keyboard.press('Escape');
  await expect(box).toHaveValue('');

  await page.keyboard.type(`lighthouse ${SUFFIX}`);
  await expect(options).toHaveCount(2);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/songs/${ids.lighthouse}$`));
  await expect(page.getByRole('heading', { level: 1, name: LIGHTHOUSE })).toBeVisible();
  await expect(await searchBox(page)).toHaveValue(''); // ready for the next search
});

test('Enter with nothing highlighted opens every matching song, best match first', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto('/playlists');
  const box = await searchBox(page);
  await box.fill(SUFFIX);
  await expect(group(page, 'Songs').getByRole('option')).toHaveCount(2);
  await box.press('Enter');
  await expect.poll(() => Object.fromEntries(query(page))).toEqual({ search: SUFFIX, sort: 'relevance' });
  // Best match: the song in a playlist before the other; by title it is the other way round.
  await expect(titles(page)).toHaveText([LIGHTHOUSE, LANTERN]);
  const sortBy = page.getByLabel('Sort by');
  await expect(sortBy.locator('option:checked')).toHaveText('Best match');
  await sortBy.selectOption({ label: 'Title, A to Z' });
  await expect.poll(() => query(page).get('sort')).toBe(null);
  await expect(titles(page)).toHaveText([LANTERN, LIGHTHOUSE]);
  await sortBy.selectOption({ label: 'Best match' });
  await expect.poll(() => query(page).get('sort')).toBe('relevance');
  await expect(titles(page)).toHaveText([LIGHTHOUSE, LANTERN]);

  // Emptied, the search takes Best match with it (there is nothing left to rank).
  await page.getByLabel('Search songs by title, album or artist').fill('');
  await expect.poll(() => query(page).get('sort')).toBe(null);
  await expect(sortBy.getByRole('option', { name: 'Best match' })).toHaveCount(0);
});

test('`/` brings the focus to the search from anywhere but a text field', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto('/songs');
  await expect(page.getByRole('heading', { level: 1, name: 'Songs' })).toBeVisible();
  const box = page.getByRole('combobox', { name: 'Search the catalogue' });
  await page.getByRole('link', { name: 'Skip to content' }).focus();
  await page.keyboard.press('/');
  await expect(box).toBeFocused();
  await expect(box).toHaveValue(''); // the key was the shortcut, not a character typed

  // In a text field, `/` is typed.
  const listSearch = page.getByLabel('Search songs by title, album or artist');
  await listSearch.focus();
  await page.keyboard.type('AC/DC');
  await expect(listSearch).toHaveValue('AC/DC');
  await expect(listSearch).toBeFocused();
});

test('accents fold: “beyonce” finds the songs of Beyoncé', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto('/playlists');
  const box = await searchBox(page);
  await box.fill(`beyonce ${SUFFIX}`);
  await expect(group(page, 'Artists').getByRole('option', { name: ARTIST })).toBeVisible();
  const song = group(page, 'Songs').getByRole('option', { name: LIGHTHOUSE });
  await expect(song).toHaveAccessibleDescription(`by ${ARTIST} · ${ALBUM}`);
  await song.click();
  await expect(page).toHaveURL(new RegExp(`/songs/${ids.lighthouse}$`));
});

test('a search with a typo that finds nothing offers “Did you mean” the song', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto(`/songs?search=${encodeURIComponent(`lighthoise ${SUFFIX}`)}`);
  await expect(page.getByText('No songs match these filters.')).toBeVisible();
  const suggestion = page.getByRole('link', { name: `Did you mean “${LIGHTHOUSE}”?` });
  await expect(suggestion).toBeVisible();
  await suggestion.click();
  await expect.poll(() => Object.fromEntries(query(page))).toEqual({ search: LIGHTHOUSE });
  await expect(titles(page)).toHaveText([LIGHTHOUSE]);
  await expect(page.getByLabel('Search songs by title, album or artist')).toHaveValue(LIGHTHOUSE);
});

test('axe finds nothing serious with the suggestions open', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto('/songs');
  await expect(page.getByRole('heading', { level: 1, name: 'Songs' })).toBeVisible();
  const box = await searchBox(page);
  await box.fill(SUFFIX);
  await expect(group(page, 'Playlists').getByRole('option')).toHaveCount(1);
  await box.press('ArrowDown');
  await expect(box).toHaveAttribute('aria-activedescendant', /./);
  await expect(page.locator('.loading')).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);
});

test.describe('on a phone 390 px wide', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('the Search button reveals the box across the header; a tap opens a result', async ({ page }) => {
    await signIn(page, ADMIN);
    // A song's page: the songs list at this width has a finding of its own (its folded-away
    // column headers), which is not the search's.
    await page.goto(`/songs/${ids.lighthouse}`);
    await expect(page.getByRole('heading', { level: 1, name: LIGHTHOUSE })).toBeVisible();
    const box = page.getByRole('combobox', { name: 'Search the catalogue' });
    const toggle = page.getByRole('banner').getByRole('button', { name: 'Search', exact: true });
    await expect(box).toBeHidden();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await toggle.tap();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(box).toBeVisible();
    await expect(box).toBeFocused();
    // Across the header: nearly the screen's width.
    expect((await box.boundingBox())!.width).toBeGreaterThan(300);

    await box.fill(SUFFIX);
    const playlist = group(page, 'Playlists').getByRole('option', { name: MIX });
    await expect(playlist).toBeVisible();
    const list = (await suggestions(page).boundingBox())!;
    expect(list.x).toBeGreaterThanOrEqual(0);
    expect(list.x + list.width).toBeLessThanOrEqual(390);
    // Nothing is wider than the screen: no sideways scroll.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, `search-phone-${test.info().project.name}`);

    await playlist.tap();
    await expect(page).toHaveURL(new RegExp(`/playlists/${ids.playlist}$`));
    await expect(page.getByRole('heading', { level: 1, name: MIX })).toBeVisible();
    // Folded away again once a result is opened.
    await expect(box).toBeHidden();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });

  test('Enter opens the full results, and “Did you mean” is offered there too', async ({ page }) => {
    await signIn(page, ADMIN);
    await page.goto('/songs');
    const box = await searchBox(page);
    await box.fill(`lighthoise ${SUFFIX}`);
    await expect(group(page, 'Songs').getByRole('option', { name: LIGHTHOUSE })).toBeVisible();
    await box.press('Enter');
    await expect.poll(() => query(page).get('sort')).toBe('relevance');
    const suggestion = page.getByRole('link', { name: `Did you mean “${LIGHTHOUSE}”?` });
    await suggestion.tap();
    await expect(titles(page)).toHaveText([LIGHTHOUSE]);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
