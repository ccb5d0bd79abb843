import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { ADMIN } from '../playwright.config';
import { signIn } from './steps';

/**
 * Two tabs of one browser sharing one session: when the access token is gone or refused, the
 * tabs refresh it one at a time (the API revokes a session whose refresh token is spent twice),
 * and the user stays signed in. Across console instances the fleet test checks the same.
 */

async function cookie(context: BrowserContext, name: string): Promise<string | undefined> {
  return (await context.cookies()).find((c) => c.name === name)?.value;
}

async function signedIn(page: Page) {
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible({ timeout: 15_000 });
  await expect(page).not.toHaveURL(/sign-in/);
}

test('two tabs reloading at once after the access token expired stay signed in', async ({ browser }) => {
  const context = await browser.newContext();
  const first = await context.newPage();
  await signIn(first, ADMIN);
  const second = await context.newPage();
  await second.goto('/users');
  await signedIn(second);
  const seen = new Set<string>();
  for (let round = 0; round < 5; round++) {
    // What the browser does when the access cookie's lifetime ends.
    await context.clearCookies({ name: 'mc_access' });
    await Promise.all([first.reload(), second.reload()]);
    await signedIn(first);
    await signedIn(second);
    seen.add((await cookie(context, 'mc_refresh'))!);
  }
  // Every round spent the refresh token once more; a replay would have revoked the session.
  expect(seen.size).toBe(5);
  const third = await context.newPage();
  await third.goto('/songs');
  await signedIn(third);
  await context.close();
});

test('an access token the API refuses is refreshed once, and the page works', async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, ADMIN);
  const url = new URL(page.url());
  // The page signed in on may still be loading its queries: swapped under it, the refused cookie
  // would make that page refresh too. Leave it first, so every refresh counted is /users'.
  await page.goto('about:blank');
  const before = await cookie(context, 'mc_refresh');
  const refreshes: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/api/session/refresh')) refreshes.push(request.url());
  });
  await context.addCookies([{ name: 'mc_access', value: 'not-a-token', domain: url.hostname, path: '/' }]);
  await page.goto('/users');
  await signedIn(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
  expect(refreshes).toHaveLength(1);
  expect(await cookie(context, 'mc_refresh')).not.toBe(before);
  expect(await cookie(context, 'mc_access')).not.toBe('not-a-token');
  await context.close();
});

test('a session ended elsewhere lands on sign-in', async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, ADMIN);
  await context.addCookies([
    { name: 'mc_access', value: 'not-a-token', domain: new URL(page.url()).hostname, path: '/' },
    { name: 'mc_refresh', value: 'revoked-elsewhere', domain: new URL(page.url()).hostname, path: '/' },
  ]);
  await page.goto('/songs');
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fsongs&expired=1/);
  expect(await cookie(context, 'mc_refresh')).toBeUndefined();
  await context.close();
});
