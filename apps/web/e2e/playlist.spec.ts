import { devices, expect, type Locator, type Page, test } from '@playwright/test';
import { ADMIN } from '../playwright.config';
import { apiCall, apiLogin, uniqueSuffix } from './api';
import { screenshot, signIn, signOut } from './steps';

/**
 * A playlist's page: its total length, reordering by keyboard, by the Up button and by touch on
 * a phone, where the focus goes after a remove, and Undo of a remove and of a move. Each test
 * makes its own playlist through the API (the database is shared with every other spec); the
 * server's order is read back through the API, then once more from the page after a reload.
 */
const suffix = uniqueSuffix();
const OWNER = {
  username: `Playlist Owner ${suffix}`,
  email: `playlist-owner-${suffix}@e2e.test`,
  password: 'playlist-password-1',
};
// 3:20 + 4:05 + 5:00 = 12:25, "12 min"; without the second, 8:20, "8 min".
const SONGS = [
  { title: `Amber ${suffix}`, duration: 200 },
  { title: `Birch ${suffix}`, duration: 245 },
  { title: `Cedar ${suffix}`, duration: 300 },
];
const [A, B, C] = SONGS.map((song) => song.title) as [string, string, string];
const songIds = new Map<string, string>();
let ownerToken = '';

test.beforeAll(async () => {
  const admin = await apiLogin(ADMIN);
  const artist = await apiCall<{ id: string }>('POST', '/artists', admin, {
    name: `Playlist Band ${suffix}`,
  });
  for (const song of SONGS) {
    const made = await apiCall<{ id: string }>('POST', '/songs', admin, { ...song, artistIds: [artist.id] });
    songIds.set(song.title, made.id);
  }
  await apiCall('POST', '/users', null, OWNER);
  ownerToken = await apiLogin(OWNER);
});

/** A playlist of the owner's holding A, B and C in that order. */
async function makePlaylist(name: string): Promise<{ id: string; name: string }> {
  const full = `${name} ${suffix}`;
  const made = await apiCall<{ id: string }>('POST', '/playlists', ownerToken, {
    name: full,
    songIds: SONGS.map((song) => songIds.get(song.title)),
  });
  return { id: made.id, name: full };
}

/** The playlist's order as the server keeps it, by title. */
async function serverOrder(playlistId: string): Promise<string[]> {
  const playlist = await apiCall<{ songIds: string[] }>('GET', `/playlists/${playlistId}`, ownerToken);
  const titles = new Map([...songIds].map(([title, id]) => [id, title]));
  return playlist.songIds.map((id) => titles.get(id) ?? id);
}

const rows = (page: Page) => page.getByTestId('playlist-song');
const titles = (page: Page) => rows(page).locator('.grow > a').allTextContents();
const status = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text });
const handle = (page: Page, title: string) =>
  page.getByRole('button', { name: new RegExp(`^Reorder ${title}`) });

async function open(page: Page, playlistId: string) {
  await signIn(page, OWNER);
  await page.goto(`/playlists/${playlistId}`);
  await expect.poll(() => titles(page)).toEqual([A, B, C]);
}

test('the header gives the song count and the total length', async ({ page }) => {
  const playlist = await makePlaylist('Length');
  await open(page, playlist.id);
  const facts = page.locator('.playlist-facts');
  await expect(facts).toContainText('3 songs · 12 min');
  await expect(facts.locator('time')).toHaveAttribute('datetime', 'PT745S');
});

test('a remove by keyboard leaves the focus on the next Remove, and Undo puts the song back', async ({
  page,
}) => {
  const playlist = await makePlaylist('Remove');
  await open(page, playlist.id);

  await page.getByRole('button', { name: `Remove ${B}` }).focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => titles(page)).toEqual([A, C]);
  await expect(page.getByRole('button', { name: `Remove ${C}` })).toBeFocused();
  await expect(status(page, `Removed “${B}” from the playlist.`)).toBeVisible();
  await expect(page.locator('.playlist-facts')).toContainText('2 songs · 8 min');
  await expect.poll(() => serverOrder(playlist.id)).toEqual([A, C]);

  // Undo, by keyboard: back in its place (the whole previous order), the focus on its Remove.
  await page.getByRole('button', { name: 'Undo', exact: true }).focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => titles(page)).toEqual([A, B, C]);
  await expect(page.getByRole('button', { name: `Remove ${B}` })).toBeFocused();
  await expect(status(page, `“${B}” is back at position 2.`)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Undo', exact: true })).toHaveCount(0);
  await expect.poll(() => serverOrder(playlist.id)).toEqual([A, B, C]);
  await page.reload();
  await expect.poll(() => titles(page)).toEqual([A, B, C]);

  // The last row: the focus goes to the row before. The only row: to the page's heading.
  await page.getByRole('button', { name: `Remove ${C}` }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: `Remove ${B}` })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: `Remove ${A}` })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: playlist.name })).toBeFocused();
  await expect(page.getByText('No songs yet')).toBeVisible();
  await expect.poll(() => serverOrder(playlist.id)).toEqual([]);
});

test('Alt+Up and the Up button reorder and keep the focus; Undo restores the order', async ({ page }) => {
  const playlist = await makePlaylist('Keys');
  await open(page, playlist.id);

  await handle(page, C).focus();
  await page.keyboard.press('Alt+ArrowUp');
  await expect.poll(() => titles(page)).toEqual([A, C, B]);
  await expect(handle(page, C)).toBeFocused();
  await expect(status(page, `Moved “${C}” to position 2.`)).toBeVisible();
  await expect.poll(() => serverOrder(playlist.id)).toEqual([A, C, B]);

  await page.getByRole('button', { name: 'Undo', exact: true }).click();
  await expect.poll(() => titles(page)).toEqual([A, B, C]);
  await expect(handle(page, C)).toBeFocused();
  await expect(status(page, `“${C}” is back at position 3.`)).toBeVisible();
  await expect.poll(() => serverOrder(playlist.id)).toEqual([A, B, C]);
  await page.reload();
  await expect.poll(() => titles(page)).toEqual([A, B, C]);

  // Up to the top, by keyboard: the button is unavailable there (aria-disabled, not disabled,
  // which would drop the focus to <body>) and keeps the focus.
  const up = page.getByRole('button', { name: `Move ${B} up` });
  await up.focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => titles(page)).toEqual([B, A, C]);
  await expect(up).toBeFocused();
  await expect(up).toHaveAttribute('aria-disabled', 'true');
  await expect(up).not.toHaveAttribute('disabled');
  await expect.poll(() => serverOrder(playlist.id)).toEqual([B, A, C]);
});

/**
 * A finger's drag, as the browser gets one from a touch screen (Chromium's input, so the
 * handle's `touch-action` and pointer capture are real): down at the centre of `from`, through
 * `points`, then up.
 */
async function touchDrag(page: Page, from: Locator, points: Array<{ x: number; y: number }>) {
  const box = await from.boundingBox();
  if (!box) throw new Error('The handle is not on screen');
  const cdp = await page.context().newCDPSession(page);
  const start = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [start] });
  for (const point of points) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [point] });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

test.describe('on a phone', () => {
  // A device's browser type is a worker option, which a describe group may not set.
  const { defaultBrowserType: _, ...pixel7 } = devices['Pixel 7'];
  test.use(pixel7);

  test('compact rows, 44 px targets, the hint for fingers only, and a touch drag reorders', async ({
    page,
  }) => {
    const playlist = await makePlaylist('Touch');
    await open(page, playlist.id);

    // The mouse's and the keyboard's hints are not shown; the handle's is.
    const hint = page.locator('.playlist-hint');
    await expect(hint).toContainText('Drag a song by its handle', { useInnerText: true });
    await expect(hint).not.toContainText('Alt+', { useInnerText: true });
    await expect(hint).not.toContainText('Drag rows', { useInnerText: true });

    for (const title of [A, B, C]) {
      for (const target of [
        handle(page, title),
        page.getByRole('button', { name: `Move ${title} up` }),
        page.getByRole('button', { name: `Move ${title} down` }),
      ]) {
        const box = await target.boundingBox();
        expect(box?.width, `${title}: a target's width`).toBeGreaterThanOrEqual(44);
        expect(box?.height, `${title}: a target's height`).toBeGreaterThanOrEqual(44);
      }
    }
    // Two lines a row (title and length; artists and buttons), inside the screen.
    for (const row of await rows(page).all()) {
      const box = await row.boundingBox();
      expect(box?.height).toBeLessThanOrEqual(100);
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(412);
    }
    await screenshot(page, 'playlist-phone');

    // The first song by its handle, past the middle of the second row and then of the third.
    await rows(page)
      .nth(1)
      .evaluate((row) => row.scrollIntoView({ block: 'center' }));
    const second = await rows(page).nth(1).boundingBox();
    const third = await rows(page).nth(2).boundingBox();
    if (!second || !third) throw new Error('The rows are not on screen');
    const x = second.x + 22;
    await touchDrag(page, handle(page, A), [
      { x, y: second.y - 20 },
      { x, y: second.y + second.height * 0.75 },
      { x, y: third.y + third.height * 0.75 },
    ]);
    await expect.poll(() => titles(page)).toEqual([B, C, A]);
    await expect(status(page, `Moved “${A}” to position 3.`)).toBeVisible();
    await screenshot(page, 'playlist-phone-moved');
    await expect.poll(() => serverOrder(playlist.id)).toEqual([B, C, A]);
    await page.reload();
    await expect.poll(() => titles(page)).toEqual([B, C, A]);
  });
});

test('the owner makes a playlist public and private again from its page, by keyboard', async ({ page }) => {
  const playlist = await makePlaylist('Visibility');
  await open(page, playlist.id);
  const visibility = page.getByRole('switch', { name: 'Public' });
  await expect(visibility).toHaveAttribute('aria-checked', 'false');
  await expect(page.getByText('only you can see it')).toBeVisible();

  // A song removed a moment before: the switch still goes through, and the songs stay as edited.
  await page.getByRole('button', { name: `Remove ${B}` }).click();
  await visibility.focus();
  await page.keyboard.press('Space');
  await expect(visibility).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByText('every signed-in user can see it')).toBeVisible();
  await expect(status(page, `“${playlist.name}” is now public.`)).toBeVisible();
  await expect(visibility).toBeFocused();
  await expect
    .poll(
      async () =>
        (await apiCall<{ isPublic: boolean }>('GET', `/playlists/${playlist.id}`, ownerToken)).isPublic,
    )
    .toBe(true);
  await expect.poll(() => serverOrder(playlist.id)).toEqual([A, C]);

  // A rename saved elsewhere meanwhile is kept: the switch sends the name the API holds.
  await apiCall('PUT', `/playlists/${playlist.id}`, ownerToken, {
    name: `${playlist.name} renamed`,
    isPublic: true,
  });
  await page.keyboard.press('Enter');
  await expect(visibility).toHaveAttribute('aria-checked', 'false');
  const saved = await apiCall<{ name: string; isPublic: boolean; songIds: string[] }>(
    'GET',
    `/playlists/${playlist.id}`,
    ownerToken,
  );
  expect(saved).toMatchObject({ name: `${playlist.name} renamed`, isPublic: false });
  expect(saved.songIds).toHaveLength(2);
});

test('a private playlist says who can see it: “only you” to its owner, its owner and admins to an admin', async ({
  page,
}) => {
  const playlist = await makePlaylist('Private');
  const visibility = page.getByRole('switch', { name: 'Public' });
  await signIn(page, OWNER);
  await page.goto(`/playlists/${playlist.id}`);
  await expect(visibility).toHaveAttribute('aria-checked', 'false');
  await expect(visibility).toHaveAccessibleDescription('only you can see it');

  await signOut(page);
  await signIn(page, ADMIN);
  await page.goto(`/playlists/${playlist.id}`);
  await expect(page.getByRole('heading', { level: 1, name: playlist.name })).toBeVisible();
  await expect(visibility).toHaveAttribute('aria-checked', 'false');
  await expect(visibility).toHaveAccessibleDescription('only its owner and admins can see it');
  await expect(page.getByText('only you can see it')).toHaveCount(0);
  await apiCall('DELETE', `/playlists/${playlist.id}`, ownerToken);
});
