import path from 'node:path';
import { expect, type Locator, type Page, test } from '@playwright/test';

/** The people, songs and steps the console's browser tests share (console.spec.ts, session.spec.ts). */
export const ARTIST = { name: 'Ada Artist', email: 'ada@e2e.test', password: 'ada-password-1' };
export const RIVAL = { name: 'Rita Rival', email: 'rita@e2e.test', password: 'rita-password-1' };
export const LISTENER = { name: 'Lou Listener', email: 'lou@e2e.test', password: 'lou-password-1' };
export const SONGS = {
  own: 'Morning Light',
  rival: 'Rival Anthem',
  extra: ['Blue Hour', 'Cold Harbour', 'Dawn Chorus'],
};

/** Kept in test-results/screens (a CI artifact) and attached to the HTML report. */
export async function screenshot(page: Page, name: string) {
  const file = path.join(test.info().project.outputDir, 'screens', `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await test.info().attach(name, { path: file, contentType: 'image/png' });
}

export async function signIn(page: Page, who: { email: string; password: string }) {
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).not.toHaveURL(/sign-in/);
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
}

export async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in/);
}

export async function createUser(
  page: Page,
  user: { name: string; email: string; password: string },
  role: string,
) {
  await page.getByRole('button', { name: 'New user' }).click();
  const dialog = page.getByRole('dialog', { name: 'New user' });
  await dialog.getByLabel('Name').fill(user.name);
  await dialog.getByLabel('Email').fill(user.email);
  await dialog.getByLabel('Password').fill(user.password);
  await dialog.getByLabel('Role').selectOption({ label: role });
  await dialog.getByRole('button', { name: 'Create user' }).click();
  await expect(dialog).toBeHidden();
  // Found by a search: the list is oldest first, and other specs' users may fill its first page.
  const search = page.getByLabel('Search users by name or email');
  await search.fill(user.email);
  await expect(page.getByRole('cell', { name: user.email })).toBeVisible();
  await search.fill('');
  await expect(page).not.toHaveURL(/[?&]search=/);
}

/** An artist made in the New artist dialog; with `account`, a biography too and that account managing it. */
export async function createArtist(page: Page, name: string, account?: { name: string; email: string }) {
  await page.goto('/artists');
  await page.getByRole('button', { name: 'New artist' }).click();
  const dialog = page.getByRole('dialog', { name: 'New artist' });
  await dialog.getByLabel('Name').fill(name);
  if (account) {
    await dialog.getByLabel('Biography').fill(`${name} writes songs for the tests.`);
    await dialog
      .getByLabel('Managed by account')
      .selectOption({ label: `${account.name} (${account.email})` });
  }
  await dialog.getByRole('button', { name: 'Create artist' }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
}

export async function createSong(page: Page, title: string, artist: string, duration = '3:25') {
  await page.goto('/songs');
  await page.getByRole('button', { name: 'New song' }).click();
  const dialog = page.getByRole('dialog', { name: 'New song' });
  await dialog.getByLabel('Title').fill(title);
  await dialog.getByLabel('Genre').fill('Indie');
  await dialog.getByLabel('Length').fill(duration);
  await dialog.getByLabel('Release year').fill('2024');
  await dialog.getByLabel('Search artists for Artists').fill(artist.split(' ')[0]!);
  await dialog.getByRole('option', { name: artist, exact: true }).click();
  await expect(dialog.getByRole('button', { name: `Remove ${artist}` })).toBeVisible();
  await dialog.getByRole('button', { name: 'Create song' }).click();
  await expect(dialog).toBeHidden();
  // A new song opens its page.
  await expect(page).toHaveURL(/\/songs\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
}

/** The main menu, opened first where it folds away behind its toggle (phones). */
export async function mainMenu(page: Page): Promise<Locator> {
  const toggle = page.getByRole('button', { name: 'Menu' });
  if ((await toggle.isVisible()) && (await toggle.getAttribute('aria-expanded')) !== 'true') {
    await toggle.click();
  }
  return page.getByRole('navigation', { name: 'Main' });
}

/** An entry of the main menu by its exact name (other links on a page may hold the same word). */
export const menuLink = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });

/**
 * Follows the header's link `name`: one of the main menu (opened first on a phone) or, on a
 * desktop, the account's link beside the name (on a phone it is in the menu).
 */
export async function followHeaderLink(page: Page, name: string) {
  await mainMenu(page);
  await page.getByRole('banner').getByRole('link', { name, exact: true }).click();
}

/**
 * A list row's cell under the column `label`. On a phone each cell shows its column's name
 * before its value (CSS), which is then part of the cell's accessible name: find it by column.
 */
export const cell = (row: Locator, label: string) => row.locator(`td[data-label="${label}"]`);

/** Whether this test runs on the phone project (a touch screen 412 px wide). */
export const onPhone = () => test.info().project.name === 'phone';

/** The console's calls to the API (its tRPC endpoint) from now on, by procedure path. */
export function recordApiCalls(page: Page): string[] {
  const calls: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/api/trpc/')) calls.push(pathname.slice('/api/trpc/'.length));
  });
  return calls;
}
