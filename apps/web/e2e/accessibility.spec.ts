import { expect, type Page, test } from '@playwright/test';
import { ADMIN } from '../playwright.config';
import { apiCall, apiLogin, uniqueSuffix } from './api';
import { seriousViolations } from './axe';
import { screenshot, signIn } from './steps';

/**
 * axe-core on every page of the console, for each role, with its dialogs open too, in the light
 * and the dark theme (as the system asks; the switch is in theme.spec.ts): no serious or critical
 * violation of WCAG 2.2 A/AA, colour contrast included. Each page checked is kept as a
 * screenshot (test-results/screens/<project> <theme> <page>.png), at both sizes (the features and phone
 * projects), to be looked at. The records are made through the API directly (fast,
 * and independent of the other specs, which share the database), with names of their own.
 */
const suffix = uniqueSuffix();
const ARTIST = {
  username: `A11y Artist ${suffix}`,
  email: `a11y-artist-${suffix}@e2e.test`,
  password: 'a11y-password-1',
};
const LISTENER = {
  username: `A11y Listener ${suffix}`,
  email: `a11y-listener-${suffix}@e2e.test`,
  password: 'a11y-password-1',
};
const world = { songId: '', artistId: '', playlistId: '' };

test.beforeAll(async () => {
  const admin = await apiLogin(ADMIN);
  const artistUser = await apiCall<{ id: string }>('POST', '/users', admin, { ...ARTIST, role: 'artist' });
  await apiCall('POST', '/users', null, LISTENER);
  const artist = await apiCall<{ id: string }>('POST', '/artists', admin, {
    name: `A11y Band ${suffix}`,
    userId: artistUser.id,
  });
  const song = await apiCall<{ id: string }>('POST', '/songs', admin, {
    title: `A11y Song ${suffix}`,
    album: 'Checked',
    genre: 'Ambient',
    releaseYear: 2024,
    duration: 245,
    artistIds: [artist.id],
  });
  const listener = await apiLogin(LISTENER);
  const playlist = await apiCall<{ id: string }>('POST', '/playlists', listener, {
    name: `A11y Mix ${suffix}`,
  });
  await apiCall('POST', `/playlists/${playlist.id}/songs`, listener, { songId: song.id });
  Object.assign(world, { songId: song.id, artistId: artist.id, playlistId: playlist.id });
});

async function check(page: Page, name: string) {
  await expect(page.locator('.loading')).toHaveCount(0);
  expect(await seriousViolations(page), name).toEqual([]);
  // The theme the page is in: the one chosen, else the system's.
  const theme = await page.evaluate(
    () =>
      document.documentElement.dataset.theme ??
      (window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'),
  );
  await screenshot(page, `${test.info().project.name} ${theme} ${name}`.replace(/[^\w -]+/g, ''));
}

/** Opens the dialog a button opens, checks the page with it open, and closes it. */
async function checkDialog(page: Page, button: string, name: string) {
  await page.getByRole('button', { name: button, exact: true }).first().click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await check(page, `${name}, dialog “${button}” open`);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();
}

for (const theme of ['light', 'dark'] as const) {
  test.describe(`${theme} theme`, () => {
    test.use({ colorScheme: theme });

    test('signed out: sign-in, also with its errors shown, and account recovery', async ({ page }) => {
      await page.goto('/sign-in');
      await check(page, 'sign-in');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await check(page, 'sign-in with errors');
      await page.goto('/forgot-password');
      await check(page, 'forgot password');
      await page.getByRole('button', { name: 'Send me a link' }).click();
      await check(page, 'forgot password with errors');
      await page.goto('/reset-password');
      await check(page, 'reset page without a token');
      // A token the page cannot tell from a real one until it is sent.
      await page.goto('/reset-password#token=not-a-real-token');
      await expect(page.getByLabel('New password')).toBeVisible();
      await check(page, 'reset page');
    });

    test('admin: home, songs and a song, dialogs open', async ({ page }) => {
      await signIn(page, ADMIN);
      await check(page, 'home');
      await page.goto('/songs');
      await check(page, 'songs');
      await checkDialog(page, 'New song', 'songs');
      // Rows picked for an action on many, and a dialog of one.
      await page.getByRole('checkbox', { name: 'Select every row on this page' }).check();
      await check(page, 'songs, rows picked');
      await checkDialog(page, 'Set genre', 'songs, rows picked');
      await page.getByRole('button', { name: 'Clear selection' }).click();
      await page.goto(`/songs/${world.songId}`);
      await check(page, 'song');
    });

    // The admin's pages in two tests: each page and dialog is one axe run and one screenshot, and
    // all of them in one test came close to the test timeout on a phone on a busy machine.
    test('admin: artists, playlists and users, dialogs open', async ({ page }) => {
      await signIn(page, ADMIN);
      await page.goto('/artists');
      await check(page, 'artists');
      await checkDialog(page, 'New artist', 'artists');
      await page.goto(`/artists/${world.artistId}`);
      await check(page, 'artist');
      await checkDialog(page, 'Delete artist', 'artist');
      await page.goto('/playlists');
      await check(page, 'playlists');
      await checkDialog(page, 'New playlist', 'playlists');
      await page.goto('/users');
      await check(page, 'users');
      await checkDialog(page, 'New user', 'users');
      await page
        .getByRole('button', { name: /^Reset link for / })
        .first()
        .click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await check(page, 'users, dialog “Reset link” open');
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toBeHidden();
    });

    test('artist: their pages', async ({ page }) => {
      await signIn(page, ARTIST);
      await check(page, 'home (artist)');
      await page.goto('/songs');
      await check(page, 'songs (artist)');
      await page.goto(`/songs/${world.songId}`);
      await check(page, 'own song (artist)');
      await page.goto(`/artists/${world.artistId}`);
      await check(page, 'own artist (artist)');
      await page.goto('/artists');
      await check(page, 'artists (artist)');
      await page.goto('/playlists');
      await check(page, 'playlists (artist)');
      // A file checked (a dry run: nothing is written), its counts and its error by line shown.
      await page.goto('/songs/import');
      await check(page, 'import songs (artist)');
      await page.getByLabel('File').setInputFiles({
        name: 'a11y.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(`title,duration,artists\r\nA11y Import ${suffix},-5,A11y Band ${suffix}\r\n`),
      });
      await page.getByRole('button', { name: 'Check the file' }).click();
      await expect(page.getByText(/^Checked:/)).toBeVisible();
      await check(page, 'import songs, file checked (artist)');
    });

    test('listener: their pages', async ({ page }) => {
      await signIn(page, LISTENER);
      await check(page, 'home (listener)');
      await page.goto('/songs');
      await check(page, 'songs (listener)');
      await page.goto(`/songs/${world.songId}`);
      await check(page, 'song, read-only (listener)');
      await page.goto('/artists');
      await check(page, 'artists (listener)');
      await page.goto(`/artists/${world.artistId}`);
      await check(page, 'artist, read-only (listener)');
      await page.goto('/playlists');
      await check(page, 'playlists (listener)');
      await page.goto('/songs/import');
      await check(page, 'import songs, not for listeners (listener)');
      await page.goto(`/playlists/${world.playlistId}`);
      await check(page, 'own playlist (listener)');
    });
  });
}
