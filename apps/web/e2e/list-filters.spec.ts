import { expect, type Page, test } from '@playwright/test';
import { ADMIN } from '../playwright.config';
import { apiCall, apiLogin, uniqueSuffix } from './api';
import { onPhone, signIn } from './steps';

/**
 * The songs list's filters as steps of history: a search typed is one step (Back returns to the
 * page the user was on, not through the keystrokes), a genre or an artist chosen is one, and
 * "Clear filters" clears them all in one step that Back undoes. The songs are made through the
 * API with names of their own; every view is narrowed by a search for this file's suffix.
 */
const suffix = uniqueSuffix();
const PREFIX = `Filters ${suffix}`;
const GENRE = `Filters Genre ${suffix}`;
const BAND = `Filters Band ${suffix}`;
const SEARCH_LABEL = 'Search songs by title, album or artist';
/** 12 songs, 4 of them of GENRE. */
const TITLES = Array.from({ length: 12 }, (_, i) => `${PREFIX} Song ${String(i + 1).padStart(2, '0')}`);
const OF_GENRE = TITLES.filter((_, i) => i % 3 === 0);

test.beforeAll(async () => {
  const admin = await apiLogin(ADMIN);
  const band = await apiCall<{ id: string }>('POST', '/artists', admin, { name: BAND });
  for (const [i, title] of TITLES.entries()) {
    await apiCall('POST', '/songs', admin, {
      title,
      duration: 200,
      artistIds: [band.id],
      ...(i % 3 === 0 ? { genre: GENRE } : {}),
    });
  }
});

const query = (page: Page) => Object.fromEntries(new URL(page.url()).searchParams);
const titleCells = (page: Page) => page.locator('main tbody td[data-label="Title"]');

test('a search typed is one step of history: Back returns to the page the user was on', async ({ page }) => {
  await signIn(page, ADMIN);
  // Page 2 of this file's songs, ten a page.
  await page.goto(`/songs?search=${encodeURIComponent(PREFIX)}&limit=10&page=2`);
  await expect(titleCells(page)).toHaveText(TITLES.slice(10));
  const search = page.getByLabel(SEARCH_LABEL);
  // Typed in three goes at the end of the search, each written to the address before the next.
  await search.click();
  await search.press('End');
  for (const more of [' Song', ' 0', '4']) {
    await search.pressSequentially(more);
    const typed = await search.inputValue();
    await expect.poll(() => query(page).search).toBe(typed);
  }
  await expect(titleCells(page)).toHaveText([TITLES[3]!]);
  await expect.poll(() => query(page)).toEqual({ search: `${PREFIX} Song 04`, limit: '10' });

  await page.goBack();
  await expect(titleCells(page)).toHaveText(TITLES.slice(10));
  await expect(search).toHaveValue(PREFIX);
  await expect.poll(() => query(page)).toEqual({ search: PREFIX, limit: '10', page: '2' });

  // Left and typed in again: a step of its own.
  await search.fill(`${PREFIX} Song 11`);
  await expect.poll(() => query(page).search).toBe(`${PREFIX} Song 11`);
  await search.blur();
  await search.fill(`${PREFIX} Song 12`);
  await expect.poll(() => query(page).search).toBe(`${PREFIX} Song 12`);
  await expect(titleCells(page)).toHaveText([TITLES[11]!]);
  await page.goBack();
  await expect(search).toHaveValue(`${PREFIX} Song 11`);
  await expect(titleCells(page)).toHaveText([TITLES[10]!]);
});

test('a genre and an artist chosen are steps of history, and "Clear filters" clears both in one', async ({
  page,
}) => {
  await signIn(page, ADMIN);
  await page.goto(`/songs?search=${encodeURIComponent(PREFIX)}`);
  await expect(titleCells(page)).toHaveText(TITLES);
  await expect(page.getByRole('button', { name: 'Clear filters' })).toBeVisible();

  const genre = page.getByLabel('Genre', { exact: true });
  await genre.fill(GENRE);
  await genre.press('Enter');
  await expect(titleCells(page)).toHaveText(OF_GENRE);
  await page.getByLabel('Search artists for Artist').fill(BAND);
  await page.getByRole('option', { name: BAND, exact: true }).click();
  await expect.poll(() => query(page).artist).toMatch(/^[0-9a-f-]{36}$/);

  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect.poll(() => query(page)).toEqual({});
  await expect(page.getByLabel(SEARCH_LABEL)).toHaveValue('');
  await expect(genre).toHaveValue('');
  await expect(page.getByRole('button', { name: /^Remove / })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Clear filters' })).toHaveCount(0);

  // Back: the filters as they were, then without the artist, then without the genre.
  await page.goBack();
  await expect(genre).toHaveValue(GENRE);
  await expect(page.getByRole('button', { name: `Remove ${BAND}` })).toBeVisible();
  await expect(titleCells(page)).toHaveText(OF_GENRE);
  await page.goBack();
  await expect(page.getByRole('button', { name: `Remove ${BAND}` })).toHaveCount(0);
  await expect(genre).toHaveValue(GENRE);
  await page.goBack();
  await expect(genre).toHaveValue('');
  await expect(titleCells(page)).toHaveText(TITLES);
});

test('the filters stay in one line with an artist chosen, and the search says what it searches in full', async ({
  page,
}) => {
  // Desktop only: on a phone the filters stack one a line by design, so "in one line" does not apply.
  test.skip(onPhone(), 'on a phone the filters are stacked, one a line');
  await signIn(page, ADMIN);
  await page.goto(`/songs?search=${encodeURIComponent(PREFIX)}`);
  const search = page.getByLabel(SEARCH_LABEL);
  // The placeholder fits its box.
  const room = await search.evaluate((input: HTMLInputElement) => {
    const style = getComputedStyle(input);
    const context = document.createElement('canvas').getContext('2d')!;
    context.font = style.font;
    const padding = Number.parseFloat(style.paddingLeft) + Number.parseFloat(style.paddingRight);
    return input.clientWidth - padding - context.measureText(input.placeholder).width;
  });
  expect(room).toBeGreaterThan(0);

  await page.getByLabel('Search artists for Artist').fill(BAND);
  await page.getByRole('option', { name: BAND, exact: true }).click();
  const chosen = page.getByRole('list', { name: 'Chosen: Artist' });
  await expect(chosen).toBeVisible();
  const searchBox = (await search.boundingBox())!;
  const chosenBox = (await chosen.boundingBox())!;
  const genreBox = (await page.getByLabel('Genre', { exact: true }).boundingBox())!;
  // Side by side, as tall as each other and on one line (a few pixels of rounding aside).
  for (const box of [chosenBox, genreBox]) {
    expect(Math.abs(box.y + box.height - (searchBox.y + searchBox.height))).toBeLessThanOrEqual(3);
    expect(Math.abs(box.height - searchBox.height)).toBeLessThanOrEqual(3);
  }
  // Removed: the search for an artist is back, with the focus.
  await page.getByRole('button', { name: `Remove ${BAND}` }).click();
  await expect(page.getByLabel('Search artists for Artist')).toBeFocused();
});

test('on a phone a song is a compact card: four or more to a screen', async ({ page }) => {
  // Phone only: the card layout exists only at phone width; on a desktop a song is a table row.
  test.skip(!onPhone(), 'a phone-sized screen');
  await signIn(page, ADMIN);
  await page.goto(`/songs?search=${encodeURIComponent(PREFIX)}`);
  await expect(titleCells(page)).toHaveText(TITLES);
  const screen = page.viewportSize()!.height;
  const heights = await page
    .locator('main table tbody tr')
    .evaluateAll((rows) => rows.map((row) => row.getBoundingClientRect().height));
  expect(heights).toHaveLength(TITLES.length);
  for (const height of heights) expect(height).toBeLessThanOrEqual(screen / 4);
});
