import { expect, test } from '@playwright/test';
import { ADMIN } from '../playwright.config';
import { apiCall, apiLogin, uniqueSuffix } from './api';
import { signIn } from './steps';

/**
 * A page of the console comes with its first data: the server fetches who is signed in and the
 * page's record with the session's access token, and renders them. Read with JavaScript off, the
 * HTML alone shows the song, the artist and the playlist, where it showed only "Opening the
 * console…" before.
 */
test('record pages arrive with the signed-in shell and their record in their HTML', async ({
  browser,
  page,
}) => {
  const token = await apiLogin(ADMIN);
  const suffix = uniqueSuffix();
  const artist = await apiCall<{ id: string }>('POST', '/artists', token, { name: `Paint Band ${suffix}` });
  const title = `First Paint ${suffix}`;
  const song = await apiCall<{ id: string }>('POST', '/songs', token, {
    title,
    duration: 245,
    artistIds: [artist.id],
  });
  const playlist = await apiCall<{ id: string }>('POST', '/playlists', token, {
    name: `Paint List ${suffix}`,
    songIds: [song.id],
  });
  await signIn(page, ADMIN);

  const html = await browser.newContext({ javaScriptEnabled: false });
  await html.addCookies(await page.context().cookies());
  const reader = await html.newPage();
  await reader.goto(`/songs/${song.id}`);
  await expect(reader.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(reader.getByRole('button', { name: 'Sign out' })).toBeVisible();
  await expect(reader.getByText('Opening the console…')).toHaveCount(0);
  await reader.goto(`/artists/${artist.id}`);
  await expect(reader.getByRole('heading', { level: 1, name: `Paint Band ${suffix}` })).toBeVisible();
  await reader.goto(`/playlists/${playlist.id}`);
  await expect(reader.getByRole('heading', { level: 1, name: `Paint List ${suffix}` })).toBeVisible();

  // Without a live access cookie the server prefetches nothing (it never refreshes a session):
  // the HTML is the shell's loading state, and the browser, with its scripts, refreshes and shows
  // the song as before.
  await html.clearCookies({ name: 'mc_access' });
  await reader.goto(`/songs/${song.id}`);
  await expect(reader.getByRole('heading', { level: 1, name: title })).toHaveCount(0);
  await html.close();
  await page.context().clearCookies({ name: 'mc_access' });
  await page.goto(`/songs/${song.id}`);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
});

test('the sign-in page hydrates without a mismatch, also typed in before its scripts ran', async ({
  browser,
}) => {
  for (const path of ['/sign-in', '/sign-in?next=%2Fsongs', '/sign-in?expired=1']) {
    // A first visit of its own: no cache, no cookies.
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    // The scripts arrive late, as on a slow connection: the fields are typed in before React runs.
    await page.route(/\/_next\/static\/chunks\/.*\.js/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await route.continue();
    });
    await page.goto(path, { waitUntil: 'commit' });
    await page.getByRole('textbox', { name: 'Email' }).fill(ADMIN.email);
    await page.getByRole('textbox', { name: 'Password' }).fill(ADMIN.password);
    await page.waitForLoadState('networkidle');
    await expect(page.getByRole('textbox', { name: 'Email' }), path).toHaveValue(ADMIN.email);
    await expect(page.getByRole('textbox', { name: 'Password' }), path).toHaveValue(ADMIN.password);
    expect(problems, path).toEqual([]);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page, path).not.toHaveURL(/sign-in/);
    await context.close();
  }
});
