import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { apiCall, uniqueSuffix } from './api';
import { signIn } from './steps';

/**
 * A session that ends while a form holds unsaved edits is signed into again in place: a dialog
 * asks for the password (a wrong one is said so), the form keeps what was typed, and saving
 * again works. With nothing unsaved the console goes to the sign-in page (session.spec.ts).
 * The session is ended as another device would end it: its cookies no longer name a live one.
 */
const suffix = uniqueSuffix();
const LISTENER = {
  username: `Again Listener ${suffix}`,
  email: `again-${suffix}@e2e.test`,
  password: 'again-password-1',
};

test.beforeAll(async () => {
  await apiCall('POST', '/users', null, LISTENER);
});

async function endSession(context: BrowserContext, page: Page) {
  const domain = new URL(page.url()).hostname;
  await context.addCookies([
    { name: 'mc_access', value: 'not-a-token', domain, path: '/' },
    { name: 'mc_refresh', value: 'revoked-elsewhere', domain, path: '/' },
  ]);
}

test('a session ended under a form with unsaved edits is signed into again in place, and the edits are saved', async ({
  page,
  context,
}) => {
  await signIn(page, LISTENER);
  await page.goto('/playlists');
  await page.getByRole('button', { name: 'New playlist' }).click();
  const form = page.getByRole('dialog', { name: 'New playlist' });
  const name = `Kept through a sign-in ${suffix}`;
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Description').fill('Typed before the session ended.');

  await endSession(context, page);
  await form.getByRole('button', { name: 'Create playlist' }).click();
  const again = page.getByRole('dialog', { name: 'Sign in again' });
  await expect(again).toBeVisible();
  await expect(page).toHaveURL(/\/playlists$/);
  await expect(again.getByText(`Signed in as ${LISTENER.email}.`)).toBeVisible();
  const password = again.getByLabel('Password');
  await expect(password).toBeFocused();

  await password.fill('not-the-password');
  await again.getByRole('button', { name: 'Sign in' }).click();
  await expect(again.getByRole('alert')).toHaveText('The password is not right.');
  await password.fill(LISTENER.password);
  await again.getByRole('button', { name: 'Sign in' }).click();
  await expect(again).toBeHidden();

  // The form as it was, and it saves now.
  await expect(form.getByLabel('Name')).toHaveValue(name);
  await expect(form.getByLabel('Description')).toHaveValue('Typed before the session ended.');
  await form.getByRole('button', { name: 'Create playlist' }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
});

test('with nothing unsaved, an ended session still goes to the sign-in page', async ({ page, context }) => {
  await signIn(page, LISTENER);
  await page.goto('/playlists');
  await expect(page.getByRole('button', { name: 'New playlist' })).toBeVisible();
  await endSession(context, page);
  // A call refused now (this click's, or one the page makes by itself first) leaves for sign-in.
  await Promise.race([
    page.getByRole('button', { name: 'Public playlists' }).click(),
    page.waitForURL(/\/sign-in/),
  ]);
  await expect(page).toHaveURL(/\/sign-in\?next=.*&expired=1/);
  await expect(page.getByRole('dialog', { name: 'Sign in again' })).toHaveCount(0);
});
