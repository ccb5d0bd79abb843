import { expect, test } from '@playwright/test';
import { ADMIN } from '../playwright.config';
import {
  ARTIST,
  createArtist,
  createSong,
  createUser,
  LISTENER,
  menuLink,
  RIVAL,
  SONGS,
  screenshot,
  signIn,
  signOut,
} from './steps';

/**
 * The console end to end, in a real Chromium against the real API and database: an admin builds
 * a small catalogue, an artist edits only their own songs, a listener builds and reorders a
 * playlist, and a visitor without a (valid) session is sent to sign-in. The steps share one
 * fresh database and run in order. Screenshots of the main screens go to test-results/screens.
 */
test.describe.configure({ mode: 'serial' });

let rivalSongPath = '';

test('a signed-out visitor is sent to sign-in, and comes back where they were going', async ({ page }) => {
  await page.goto('/songs?search=x');
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fsongs%3Fsearch%3Dx$/);
  await expect(page.getByRole('heading', { name: 'Music Catalogue' })).toBeVisible();
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Enter a valid email address')).toBeVisible(); // the procedure's own schema, in words
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByLabel('Password').fill('wrong-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.locator('.notice-error')).toHaveText('The email or the password is not right.');
  await screenshot(page, '01-sign-in-error');
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/songs\?search=x$/);
  // The tokens are out of the page's reach; it can read only the session's generation (a random
  // value that tells tabs apart refreshes, see src/lib/session-refresh.ts).
  const cookies = await page.context().cookies();
  const tokens = cookies.filter((c) => c.name === 'mc_access' || c.name === 'mc_refresh');
  expect(tokens).toHaveLength(2);
  expect(tokens.every((c) => c.httpOnly)).toBe(true);
  expect(await page.evaluate(() => document.cookie)).toMatch(/^mc_session=[\w-]+$/);
  expect(await page.evaluate(() => Object.keys(localStorage).length)).toBe(0);
});

test('a session the API no longer accepts lands back on sign-in', async ({ page, context, baseURL }) => {
  await context.addCookies([{ name: 'mc_access', value: 'not-a-token', url: baseURL! }]);
  await page.goto('/playlists');
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fplaylists&expired=1$/);
  await expect(page.getByText('Your session has ended')).toBeVisible();
});

test('an admin builds a small catalogue', async ({ page }) => {
  await signIn(page, ADMIN);
  // Signing in leads home; the menu leads on.
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  await menuLink(page, 'Users').click();
  await createUser(page, ARTIST, 'Artist');
  await createUser(page, RIVAL, 'Artist');
  await createUser(page, LISTENER, 'Listener (user)');

  // A duplicate email: the API's 409, in words, and nothing created.
  await page.getByRole('button', { name: 'New user' }).click();
  const dialog = page.getByRole('dialog', { name: 'New user' });
  await dialog.getByLabel('Name').fill('Copy');
  await dialog.getByLabel('Email').fill(ARTIST.email.toUpperCase());
  await dialog.getByLabel('Password').fill('short');
  await dialog.getByRole('button', { name: 'Create user' }).click();
  await expect(dialog.locator('.field-error')).toHaveCount(1); // password: 8 to 128, client-side
  await dialog.getByLabel('Password').fill('long-enough-1');
  await dialog.getByRole('button', { name: 'Create user' }).click();
  await expect(dialog.locator('.notice-error')).toContainText(/already/i);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  // What was typed is not saved: the dialog asks before it is lost.
  await dialog.getByRole('button', { name: 'Discard' }).click();
  await expect(dialog).toBeHidden();
  await page.getByLabel('Role').selectOption({ label: 'Artist' });
  await expect(page.getByRole('row')).toHaveCount(3); // header + the two artist accounts
  await screenshot(page, '02-admin-users');

  await createArtist(page, 'Ada and the Testers', ARTIST);
  await createArtist(page, 'Rita Rival Band', RIVAL);
  await page.goto('/artists');
  await page.getByLabel('Search artists by name').fill('testers');
  await expect(page.getByRole('link', { name: 'Ada and the Testers' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Rita Rival Band' })).toBeHidden();
  await screenshot(page, '03-admin-artists');

  await createSong(page, SONGS.own, 'Ada and the Testers');
  await createSong(page, SONGS.rival, 'Rita Rival Band', '245');
  for (const title of SONGS.extra) await createSong(page, title, 'Rita Rival Band');

  // Server-side validation the form cannot know: an unknown genre is fine, a bad year is not.
  await page.goto('/songs');
  await page.getByRole('button', { name: 'New song' }).click();
  const songDialog = page.getByRole('dialog', { name: 'New song' });
  await songDialog.getByLabel('Title').fill('Bad year');
  await songDialog.getByLabel('Length').fill('1:00');
  await songDialog.getByLabel('Release year').fill('99');
  await songDialog.getByRole('button', { name: 'Create song' }).click();
  await expect(songDialog.locator('.field-error')).toHaveCount(1);
  await songDialog.getByRole('button', { name: 'Cancel' }).click();
  await songDialog.getByRole('button', { name: 'Discard' }).click(); // typed values: asked first

  await page.getByLabel('Search songs by title, album or artist').fill('rival');
  await expect(page.getByRole('link', { name: SONGS.rival })).toBeVisible();
  await expect(page.getByRole('link', { name: SONGS.own })).toBeHidden();
  rivalSongPath = (await page.getByRole('link', { name: SONGS.rival }).getAttribute('href')) ?? '';
  expect(rivalSongPath).toMatch(/^\/songs\/[0-9a-f-]{36}$/);
  await page.getByLabel('Search songs by title, album or artist').fill('');
  await expect(page.getByRole('link', { name: SONGS.own })).toBeVisible();
  await screenshot(page, '04-admin-songs');
  await signOut(page);
});

test('an artist edits their own songs and is refused another’s', async ({ page }) => {
  await signIn(page, ARTIST);
  await menuLink(page, 'Songs').click();
  await expect(page.getByRole('heading', { name: 'My songs' })).toBeVisible();
  await expect(page.getByRole('link', { name: SONGS.own })).toBeVisible();
  await expect(page.getByRole('link', { name: SONGS.rival })).toBeHidden();
  await screenshot(page, '05-artist-my-songs');

  await page.getByRole('button', { name: `Edit ${SONGS.own}` }).click();
  const dialog = page.getByRole('dialog', { name: `Edit ${SONGS.own}` });
  await dialog.getByLabel('Title').fill(`${SONGS.own} (Remastered)`);
  await dialog.getByRole('button', { name: 'Save song' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('link', { name: `${SONGS.own} (Remastered)` })).toBeVisible();

  // In the whole catalogue, another artist's songs offer no edit.
  await page.getByRole('button', { name: 'Whole catalogue' }).click();
  await expect(page.getByRole('link', { name: SONGS.rival })).toBeVisible();
  await expect(page.getByRole('button', { name: `Edit ${SONGS.rival}` })).toHaveCount(0);

  // Opened directly: read-only, and the API itself refuses the change (403).
  await page.goto(rivalSongPath);
  await expect(page.getByRole('heading', { level: 1, name: SONGS.rival })).toBeVisible();
  await expect(page.getByText('This song belongs to another artist')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save song' })).toHaveCount(0);
  const songId = rivalSongPath.split('/').pop();
  const refused = await page.request.post('/api/trpc/songs.update', {
    data: { songId, title: 'Hijacked' },
    headers: { origin: new URL(page.url()).origin },
  });
  expect(refused.status()).toBe(403);
  expect((await refused.json()).error.data.code).toBe('FORBIDDEN');
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: SONGS.rival })).toBeVisible();
  await screenshot(page, '06-artist-refused');

  // Their own profile.
  await page.getByRole('link', { name: 'My artist profile' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Ada and the Testers' })).toBeVisible();
  await page.getByLabel('Biography').fill('Updated by Ada herself.');
  await page.getByRole('button', { name: 'Save artist' }).click();
  await expect(page.getByText('Saved.')).toBeVisible();
  await expect(page.getByLabel('Managed by account')).toHaveCount(0);
  await signOut(page);
});

test('a listener builds, reorders and shares a playlist', async ({ page }) => {
  await signIn(page, LISTENER);
  await expect(page).toHaveURL(/\/$/);
  await menuLink(page, 'Playlists').click();
  await expect(page).toHaveURL(/\/playlists$/);
  await expect(page.getByText('You have no playlists yet')).toBeVisible();
  await page.getByRole('button', { name: 'New playlist' }).click();
  const dialog = page.getByRole('dialog', { name: 'New playlist' });
  await dialog.getByLabel('Name').fill('Road Trip');
  await dialog.getByRole('button', { name: 'Create playlist' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Road Trip' })).toBeVisible();

  const search = page.getByLabel('Search the catalogue by title, album or artist');
  for (const title of [SONGS.extra[0]!, SONGS.extra[1]!, SONGS.extra[2]!]) {
    await search.fill(title);
    await page.getByRole('button', { name: `Add ${title}` }).click();
    await expect(page.getByRole('button', { name: `${title} is in the playlist` })).toBeVisible();
  }
  const rows = page.getByTestId('playlist-song');
  const titles = () => rows.locator('.grow > a').allTextContents();
  await expect(rows).toHaveCount(3);
  expect(await titles()).toEqual(['Blue Hour', 'Cold Harbour', 'Dawn Chorus']);

  // Keyboard: Alt+Up on the last song's handle moves it up, and focus stays with it.
  await page.getByRole('button', { name: /^Reorder Dawn Chorus/ }).focus();
  await page.keyboard.press('Alt+ArrowUp');
  await expect.poll(titles).toEqual(['Blue Hour', 'Dawn Chorus', 'Cold Harbour']);
  await expect(page.getByRole('button', { name: /^Reorder Dawn Chorus/ })).toBeFocused();
  // The Up button.
  await page.getByRole('button', { name: 'Move Cold Harbour up' }).click();
  await expect.poll(titles).toEqual(['Blue Hour', 'Cold Harbour', 'Dawn Chorus']);
  // Drag and drop: the first row onto the last.
  await rows.nth(0).dragTo(rows.nth(2));
  await expect.poll(titles).toEqual(['Cold Harbour', 'Dawn Chorus', 'Blue Hour']);
  // The order is the server's, not just the screen's.
  await page.reload();
  await expect.poll(titles).toEqual(['Cold Harbour', 'Dawn Chorus', 'Blue Hour']);

  await page.getByRole('button', { name: 'Remove Dawn Chorus' }).click();
  await expect.poll(titles).toEqual(['Cold Harbour', 'Blue Hour']);

  await page.getByRole('button', { name: 'Edit details' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit playlist' });
  await edit.getByLabel('Name').fill('Road Trip 2026');
  await edit.getByLabel('Public: every signed-in user can see it').check();
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Road Trip 2026' })).toBeVisible();
  await expect(page.getByText('Public', { exact: true })).toBeVisible();
  expect(await titles()).toEqual(['Cold Harbour', 'Blue Hour']); // details saved, songs kept
  await screenshot(page, '07-listener-playlist');
  const playlistPath = new URL(page.url()).pathname;
  await signOut(page);

  // Someone else can read it (public) but not change it.
  await signIn(page, ARTIST);
  await page.goto('/playlists');
  await page.getByRole('button', { name: 'Public playlists' }).click();
  await page.getByRole('link', { name: 'Road Trip 2026' }).click();
  await expect(page).toHaveURL(new RegExp(`${playlistPath}$`));
  await expect(page.getByText('another listener’s public playlist')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Edit details' })).toHaveCount(0);
  await expect.poll(titles).toEqual(['Cold Harbour', 'Blue Hour']);
  await signOut(page);
});

test('an admin links songs, filters, changes a role and deletes', async ({ page }) => {
  await signIn(page, ADMIN);

  // Every playlist, with its owner.
  await page.goto('/playlists');
  await expect(page.getByRole('button', { name: 'All playlists' })).toHaveAttribute('aria-pressed', 'true');
  const roadTrip = page.getByRole('row', { name: /Road Trip 2026/ });
  await expect(roadTrip.getByRole('cell', { name: LISTENER.name })).toBeVisible();

  // Link a song to an artist, see it listed, unlink it again.
  await page.goto('/artists');
  await page.getByRole('link', { name: 'Ada and the Testers' }).click();
  const songs = page.locator('section', { has: page.getByRole('heading', { name: 'Songs' }) });
  await expect(songs.getByRole('link', { name: `${SONGS.own} (Remastered)` })).toBeVisible();
  await page.getByLabel('Search songs to link to Ada and the Testers').fill('Blue');
  await page.getByRole('button', { name: 'Link Blue Hour' }).click();
  await expect(songs.getByRole('link', { name: 'Blue Hour' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Blue Hour is linked' })).toBeDisabled();
  await page.getByRole('button', { name: 'Unlink Blue Hour' }).click();
  await expect(songs.getByRole('link', { name: 'Blue Hour' })).toBeHidden();

  // Filter songs by artist, then delete one.
  await page.goto('/songs');
  await page.getByLabel('Search artists for Artist').fill('Ada');
  await page.getByRole('option', { name: 'Ada and the Testers', exact: true }).click();
  await expect(page.getByRole('link', { name: `${SONGS.own} (Remastered)` })).toBeVisible();
  await expect(page.getByRole('link', { name: SONGS.rival })).toBeHidden();
  await page.getByRole('button', { name: 'Remove Ada and the Testers' }).click();
  await page.getByRole('button', { name: 'Delete Dawn Chorus' }).click();
  await page
    .getByRole('dialog', { name: 'Delete song' })
    .getByRole('button', { name: 'Delete song' })
    .click();
  await expect(page.getByRole('link', { name: 'Dawn Chorus' })).toBeHidden();
  await expect(page.getByRole('link', { name: SONGS.rival })).toBeVisible();

  // Change a role: the role endpoint changes nothing else, so no password is asked for.
  await page.goto('/users');
  await page.getByRole('button', { name: `Edit ${LISTENER.name}` }).click();
  const edit = page.getByRole('dialog', { name: `Edit ${LISTENER.name}` });
  await edit.getByLabel('Role').selectOption({ label: 'Artist' });
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(edit).toBeHidden();
  await expect(page.getByRole('row', { name: new RegExp(LISTENER.email) }).getByText('Artist')).toBeVisible();

  // Delete the user: their playlists go with them.
  await page.getByRole('button', { name: `Delete ${LISTENER.name}` }).click();
  await page
    .getByRole('dialog', { name: 'Delete user' })
    .getByRole('button', { name: 'Delete user' })
    .click();
  await expect(page.getByRole('cell', { name: LISTENER.email })).toBeHidden();
  await page.goto('/playlists');
  await expect(page.getByText('No playlists here yet.')).toBeVisible();
  await signOut(page);
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(LISTENER.email);
  await page.getByLabel('Password').fill(LISTENER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.locator('.notice-error')).toHaveText('The email or the password is not right.');
});

test('the console works at phone width', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, ADMIN);
  await expect(menuLink(page, 'Users')).toBeHidden();
  await page.getByRole('button', { name: 'Menu' }).click();
  await menuLink(page, 'Users').click();
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
  await page.getByRole('button', { name: 'Menu' }).click();
  await menuLink(page, 'Songs').click();
  await expect(page.getByRole('link', { name: SONGS.rival })).toBeVisible();
  await screenshot(page, '08-phone-songs');
});
