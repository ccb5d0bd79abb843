import { expect, type Locator, type Page, test } from '@playwright/test';
import { ADMIN } from '../playwright.config';
import { cell, createUser, signIn, signOut } from './steps';

/**
 * The details a new user notices: the read-only song page shows every field, a selected tab stays
 * readable under the pointer, song lengths with minutes or seconds past 59 are refused in words,
 * and the console has an icon (no /favicon.ico 404). The suite's other files share this database
 * and run after this one (its name keeps its place in their order): everything made here has its own names, and only a listener account is
 * added (console.spec.ts counts the artist accounts).
 */
test.describe.configure({ mode: 'serial' });

const SUFFIX = Math.random().toString(36).slice(2, 8);
const READER = {
  name: `Fixes Reader ${SUFFIX}`,
  email: `fixes-reader-${SUFFIX}@e2e.test`,
  password: 'fixes-reader-password-1',
};
const BAND = `Fixture Band ${SUFFIX}`;
const FULL_SONG = {
  title: `Fixture Full ${SUFFIX}`,
  album: `Fixture Album ${SUFFIX}`,
  genre: 'Shoegaze',
  length: '4:05',
  year: '2019',
};
// An ISRC of this run (unique among songs), typed as people write it and shown as stored.
const ISRC_NUMBER = String(Math.floor(Math.random() * 10_000_000)).padStart(7, '0');
const ISRC = {
  typed: `qz-e2e-${ISRC_NUMBER.slice(0, 2)}-${ISRC_NUMBER.slice(2)}`,
  shown: `QZE2E${ISRC_NUMBER}`,
};
const BARE_SONG = `Fixture Bare ${SUFFIX}`;

/** The value beside a label in a record's facts (`<dl class="facts">`). */
function fact(page: Page, label: string): Locator {
  return page.locator(
    `xpath=//dl[contains(@class, "facts")]/dt[normalize-space()="${label}"]/following-sibling::dd[1]`,
  );
}

/** Picks an artist in the song dialog's artist picker. */
async function pickArtist(dialog: Locator, artist: string) {
  await dialog.getByLabel('Search artists for Artists').fill(artist.split(' ')[0]!);
  await dialog.getByRole('option', { name: artist, exact: true }).click();
  await expect(dialog.getByRole('button', { name: `Remove ${artist}` })).toBeVisible();
}

/** WCAG's contrast ratio of an element's text on its own background, as the browser computes them. */
function contrastOf(element: Locator): Promise<{ ratio: number; color: string; background: string }> {
  return element.evaluate((node) => {
    const style = getComputedStyle(node);
    const rgba = (css: string) => {
      const [r = 0, g = 0, b = 0, a = 1] = (css.match(/[\d.]+/g) ?? []).map(Number);
      return { r, g, b, a };
    };
    // A translucent colour is seen over what is behind it: the page's own background (--bg) for
    // the background, the background for the text.
    const over = (top: ReturnType<typeof rgba>, below: { r: number; g: number; b: number }) => ({
      r: top.a * top.r + (1 - top.a) * below.r,
      g: top.a * top.g + (1 - top.a) * below.g,
      b: top.a * top.b + (1 - top.a) * below.b,
    });
    const luminance = ({ r, g, b }: { r: number; g: number; b: number }) => {
      const linear = (c: number) => {
        const s = c / 255;
        return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
    };
    const background = over(rgba(style.backgroundColor), { r: 246, g: 247, b: 249 });
    const text = over(rgba(style.color), background);
    const [light, dark] = [luminance(background), luminance(text)].sort((x, y) => y - x) as [number, number];
    return { ratio: (light + 0.05) / (dark + 0.05), color: style.color, background: style.backgroundColor };
  });
}

test('the console has an icon: /favicon.ico answers, and every page links one', async ({ page }) => {
  const missing: string[] = [];
  page.on('response', (response) => {
    if (response.status() === 404 && /favicon|icon/.test(new URL(response.url()).pathname)) {
      missing.push(response.url());
    }
  });

  const favicon = await page.request.get('/favicon.ico');
  expect(favicon.status()).toBe(200);
  expect(favicon.headers()['content-type']).toMatch(/^image\//);
  expect(favicon.headers()['cache-control']).toMatch(/max-age=\d{5,}/);
  const drawing = await favicon.text();
  expect(drawing).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);

  // Signed out (sign-in) and signed in (a console page): the head names the icon.
  await page.goto('/sign-in');
  const icon = page.locator('head link[rel~="icon"]').first();
  await expect(icon).toHaveAttribute('href', /\/icon\.svg/);
  const href = (await icon.getAttribute('href'))!;
  const linked = await page.request.get(href);
  expect(linked.status()).toBe(200);
  expect(linked.headers()['content-type']).toMatch(/^image\/svg\+xml/);
  expect(await linked.text()).toBe(drawing); // one drawing, whichever way it is asked for

  await signIn(page, ADMIN);
  await expect(page.locator('head link[rel~="icon"]').first()).toHaveAttribute('href', /\/icon\.svg/);
  expect(missing).toEqual([]);
});

test('an admin adds a listener, an artist and a song with every field', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto('/users');
  await createUser(page, READER, 'Listener (user)');

  // An artist managed by no account: no artist account is added to the shared database.
  await page.goto('/artists');
  await page.getByRole('button', { name: 'New artist' }).click();
  const artistDialog = page.getByRole('dialog', { name: 'New artist' });
  await artistDialog.getByLabel('Name').fill(BAND);
  await artistDialog.getByRole('button', { name: 'Create artist' }).click();
  await expect(page.getByRole('heading', { level: 1, name: BAND })).toBeVisible();

  await page.goto('/songs');
  await page.getByRole('button', { name: 'New song' }).click();
  const dialog = page.getByRole('dialog', { name: 'New song' });
  await dialog.getByLabel('Title').fill(FULL_SONG.title);
  await dialog.getByLabel('Album').fill(FULL_SONG.album);
  await dialog.getByLabel('Genre').fill(FULL_SONG.genre);
  await dialog.getByLabel('Length').fill(FULL_SONG.length);
  await dialog.getByLabel('Release year').fill(FULL_SONG.year);
  // A malformed ISRC is refused beside the field, in words; the well-formed one is saved.
  const isrc = dialog.getByLabel('ISRC');
  await isrc.fill('QZ-E2E-1');
  await dialog.getByRole('button', { name: 'Create song' }).click();
  await expect(dialog.locator('.field-error')).toHaveText([/An ISRC is 12 characters/]);
  await isrc.fill(ISRC.typed);
  await pickArtist(dialog, BAND);
  await dialog.getByRole('button', { name: 'Create song' }).click();
  await expect(dialog).toBeHidden();
  // The new song opens its page; back on the list, it is found by a search (other specs' songs
  // may fill the first page).
  await expect(page.getByRole('heading', { level: 1, name: FULL_SONG.title })).toBeVisible();
  await page.goBack();
  await page.getByLabel('Search songs by title, album or artist').fill(FULL_SONG.title);
  await expect(page.getByRole('link', { name: FULL_SONG.title, exact: true })).toBeVisible();
  await signOut(page);
});

test('a song length with minutes or seconds past 59 is refused in words', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto('/songs');
  await page.getByRole('button', { name: 'New song' }).click();
  const dialog = page.getByRole('dialog', { name: 'New song' });
  await dialog.getByLabel('Title').fill(BARE_SONG);
  await pickArtist(dialog, BAND);
  const length = dialog.getByLabel('Length');
  const create = dialog.getByRole('button', { name: 'Create song' });
  for (const [typed, refusal] of [
    ['3:75', 'Seconds must be 0-59'], // was saved as 4:15
    ['1:99:99', 'Minutes must be 0-59'], // was saved as 2:40:39
    ['0:00', 'The length must be at least 0:01'],
    ['', 'Enter the length, such as 3:25'],
    ['24:00:01', 'The length must be at most 24:00:00'],
  ] as const) {
    await length.fill(typed);
    await create.click();
    // The only error is the length's, beside it and in its accessible description; nothing saved.
    await expect(dialog.locator('.field-error'), typed).toHaveText([refusal]);
    await expect(length, typed).toHaveAccessibleDescription(new RegExp(refusal));
    await expect(dialog, typed).toBeVisible();
  }

  // The longest length the API takes is accepted, and shown as typed.
  await length.fill('24:00:00');
  await create.click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('heading', { level: 1, name: BARE_SONG })).toBeVisible();
  await page.goBack();
  await page.getByLabel('Search songs by title, album or artist').fill(BARE_SONG);
  const row = page.getByRole('row', { name: new RegExp(BARE_SONG) });
  await expect(cell(row, 'Length')).toHaveText('24:00:00');
  await signOut(page);
});

test('a listener reads a song’s album, genre, year, length and artists', async ({ page }) => {
  await signIn(page, READER);
  await page.goto('/songs');
  const search = page.getByLabel('Search songs by title, album or artist');
  await search.fill(FULL_SONG.title);
  await page.getByRole('link', { name: FULL_SONG.title, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: FULL_SONG.title })).toBeVisible();
  await expect(page.getByText('This song belongs to the catalogue')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save song' })).toHaveCount(0);
  await expect(fact(page, 'Album')).toHaveText(FULL_SONG.album);
  await expect(fact(page, 'Genre')).toHaveText(FULL_SONG.genre);
  await expect(fact(page, 'Release year')).toHaveText(FULL_SONG.year);
  await expect(fact(page, 'Length')).toHaveText(FULL_SONG.length);
  await expect(fact(page, 'ISRC')).toHaveText(ISRC.shown);
  await expect(fact(page, 'Artists')).toHaveText(BAND);

  // What a song does not have shows as the lists show it: a dash.
  await page.goto('/songs');
  await search.fill(BARE_SONG);
  await page.getByRole('link', { name: BARE_SONG, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: BARE_SONG })).toBeVisible();
  for (const label of ['Album', 'Genre', 'Release year', 'ISRC'])
    await expect(fact(page, label), label).toHaveText('—');
  await expect(fact(page, 'Length')).toHaveText('24:00:00');
  await expect(fact(page, 'Artists')).toHaveText(BAND);
  await signOut(page);
});

test('a selected tab stays readable while hovered, focused and pressed', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto('/playlists');
  const selected = page.getByRole('button', { name: 'All playlists' });
  await expect(selected).toHaveAttribute('aria-pressed', 'true');

  const readable = async (state: string) => {
    const { ratio, color, background } = await contrastOf(selected);
    expect(ratio, `${state}: ${color} on ${background}`).toBeGreaterThanOrEqual(4.5);
  };
  await readable('at rest');

  await selected.hover();
  expect(await selected.evaluate((node) => node.matches(':hover'))).toBe(true);
  await readable('hovered');

  // From the tab before it by keyboard, the pointer still over it.
  await page.getByRole('button', { name: 'Public playlists' }).focus();
  await page.keyboard.press('Tab');
  await expect(selected).toBeFocused();
  expect(await selected.evaluate((node) => node.matches(':focus-visible'))).toBe(true);
  await readable('hovered and focused');

  await page.mouse.down();
  expect(await selected.evaluate((node) => node.matches(':active'))).toBe(true);
  await readable('pressed');
  await page.mouse.up();
  await expect(selected).toHaveAttribute('aria-pressed', 'true');
});
