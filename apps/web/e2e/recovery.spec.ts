import { expect, type Page, test } from '@playwright/test';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import { ADMIN } from '../playwright.config';
import { API, apiCall, apiLogin, uniqueSuffix } from './api';
import { seriousViolations } from './axe';
import { resetLinkIn, waitForMail } from './mail';
import { screenshot, signIn, signOut } from './steps';

/**
 * Account recovery through the console: "Forgot password?" mails a link (through the e2e API's
 * real SMTP server, e2e/mailbox.mjs) that sets a new password on the reset page; an admin makes a
 * link to hand over, or mails one; a link works once. Every spec shares one database: each test
 * makes its own accounts, and ADMIN is never changed.
 */

type Account = { name: string; email: string; password: string };

const SENT =
  'If an account has this email, we have sent it a link to choose a new password. It works for 30 minutes.';
const RESET_SUBJECT = /reset your music catalogue password/i;

async function signedUp(kind: string): Promise<Account> {
  const id = uniqueSuffix();
  const made = {
    name: `${kind} ${id}`,
    email: `${kind.toLowerCase()}-${id}@e2e.test`,
    password: `${kind}-pass-${id}`,
  };
  await apiCall('POST', '/users', null, { username: made.name, email: made.email, password: made.password });
  return made;
}

/** The reset page at `link`: sets `password`, and answers the page's live region. */
async function setPassword(page: Page, link: string, password: string) {
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: 'Choose a new password' })).toBeVisible();
  await page.getByLabel('New password').fill(password);
  await page.getByRole('button', { name: 'Set new password' }).click();
}

async function refusedSignIn(page: Page, who: { email: string; password: string }) {
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.locator('.notice-error')).toHaveText('The email or the password is not right.');
}

test('forgot password: the mailed link sets a new password; the old one no longer signs in', async ({
  page,
  baseURL,
}) => {
  const ann = await signedUp('Forgot');
  const fresh = `${ann.password}-reset`;
  await page.goto('/sign-in');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Forgot your password?' })).toBeVisible();
  await expect(page).toHaveTitle('Forgot your password · Music Catalogue');

  // Nothing typed: the field says what it needs, in words, and nothing is sent.
  const email = page.getByLabel('Email');
  const send = page.getByRole('button', { name: 'Send me a link' });
  await send.click();
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  await expect(email).toBeFocused();
  expect(await seriousViolations(page), 'forgot password, with an error').toEqual([]);

  // Emails are one account whatever their letter case.
  await email.fill(ann.email.toUpperCase());
  await send.click();
  const status = page.getByRole('main').getByRole('status');
  await expect(status).toHaveText(SENT);
  await screenshot(page, 'recovery-forgot-sent');
  await expect(page.getByRole('link', { name: 'Back to sign in' })).toHaveAttribute('href', '/sign-in');
  expect(await seriousViolations(page), 'forgot password, sent').toEqual([]);

  const link = resetLinkIn(await waitForMail(ann.email, RESET_SUBJECT));
  expect(link.startsWith(`${baseURL}/reset-password#token=`)).toBe(true);
  await page.goto(link);
  // The token is read, then taken out of the address: not left in the history.
  await expect(page.getByLabel('New password')).toBeVisible();
  await expect(page).toHaveURL(`${baseURL}/reset-password`);
  expect(await page.evaluate(() => window.location.hash)).toBe('');
  await expect(page).toHaveTitle('Choose a new password · Music Catalogue');

  const password = page.getByLabel('New password');
  await expect(password).toHaveAttribute('autocomplete', 'new-password');
  await expect(password).toHaveAccessibleDescription(/8 to 128 characters/);
  await page.getByRole('button', { name: 'Show password' }).click();
  await expect(password).toHaveAttribute('type', 'text');
  await page.getByRole('button', { name: 'Hide password' }).click();

  // Too short: refused in words before anything is sent.
  await password.fill('short');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(password).toHaveAttribute('aria-invalid', 'true');
  await expect(password).toHaveAccessibleDescription(/At least 8 characters/);
  await expect(password).toBeFocused();
  expect(await seriousViolations(page), 'reset page, with an error').toEqual([]);
  await screenshot(page, 'recovery-reset-error');

  await password.fill(fresh);
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByRole('main').getByRole('status')).toHaveText(
    /Your new password is set\. Every session of your account was signed out/,
  );
  expect(await seriousViolations(page), 'reset page, done').toEqual([]);
  await page.getByRole('link', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/sign-in$/);

  await refusedSignIn(page, ann);
  await signIn(page, { email: ann.email, password: fresh });
  await expect(page.locator('.whoami-name')).toHaveText(ann.name);
});

test('forgot password: an email without an account gets the same answer', async ({ page }) => {
  await page.goto('/forgot-password');
  await page.getByLabel('Email').fill(`nobody-${uniqueSuffix()}@e2e.test`);
  await page.getByRole('button', { name: 'Send me a link' }).click();
  await expect(page.getByRole('main').getByRole('status')).toHaveText(SENT);
});

test('forgot password: too many requests say when to try again', async ({ page }) => {
  // The limit itself is the API's (tested there); here, the console's words for its 429.
  await page.route(
    (url) => url.pathname === '/api/trpc/auth.requestPasswordReset',
    (route) =>
      route.fulfill({
        status: 429,
        contentType: 'application/json',
        headers: { 'retry-after': '600' },
        body: JSON.stringify({
          error: {
            message: 'Too many password reset requests; try again later',
            code: TRPC_ERROR_CODES_BY_KEY.TOO_MANY_REQUESTS,
            data: { code: 'TOO_MANY_REQUESTS', httpStatus: 429, retryAfter: 600 },
          },
        }),
      }),
  );
  await page.goto('/forgot-password');
  await page.getByLabel('Email').fill(`busy-${uniqueSuffix()}@e2e.test`);
  await page.getByRole('button', { name: 'Send me a link' }).click();
  await expect(page.getByRole('main').getByRole('alert')).toHaveText(
    'Too many requests for a reset link. Try again in 10 minutes.',
  );
});

test('an admin makes a reset link for a user, who sets their password with it', async ({ page, context }) => {
  const ben = await signedUp('Handed');
  const fresh = `${ben.password}-handed`;
  // Ben is signed in elsewhere: that session ends when the new password is set.
  const elsewhere = await apiLogin(ben);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);

  await signIn(page, ADMIN);
  await page.goto('/users');
  await page.getByLabel('Search users by name or email').fill(ben.email);
  const row = page.getByRole('row', { name: ben.email });
  await row.getByRole('button', { name: `Reset link for ${ben.name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Reset link for ${ben.name}` });
  await expect(dialog).toContainText('works once, for 30 minutes');
  expect(await seriousViolations(page), 'reset link dialog').toEqual([]);

  await dialog.getByRole('button', { name: 'Make a link' }).click();
  const field = dialog.getByLabel('Reset link');
  await expect(field).toHaveValue(/\/reset-password#token=[\w-]+$/);
  await expect(field).toHaveAttribute('readonly', '');
  await expect(field).toBeFocused();
  await expect(field).toHaveAccessibleDescription(/Works once, until .+\. Hand it to/);
  expect(await seriousViolations(page), 'reset link dialog, with the link').toEqual([]);
  await screenshot(page, 'recovery-admin-link');
  const link = await field.inputValue();
  await dialog.getByRole('button', { name: 'Copy link' }).click();
  await expect(page.locator('.toasts')).toContainText('Copied the link.');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);

  // Or mailed: the same neutral words as the sign-in page's, and the mail arrives.
  await dialog.getByRole('button', { name: 'Mail a link instead' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.locator('.toasts')).toContainText(SENT);
  await waitForMail(ben.email, RESET_SUBJECT);
  await signOut(page);

  await setPassword(page, link, fresh);
  await expect(page.getByRole('main').getByRole('status')).toContainText('Your new password is set.');
  // Every session of the account ended, the one elsewhere too.
  const me = await fetch(`${API}/auth/me`, { headers: { authorization: `Bearer ${elsewhere}` } });
  expect(me.status).toBe(401);
  await refusedSignIn(page, ben);
  await signIn(page, { email: ben.email, password: fresh });
});

test('a used link is refused on the reset page, with a way to ask for a new one', async ({ page }) => {
  const cy = await signedUp('Used');
  await apiCall('POST', '/auth/password-reset', null, { email: cy.email });
  const link = resetLinkIn(await waitForMail(cy.email, RESET_SUBJECT));
  const first = `${cy.password}-first`;
  await setPassword(page, link, first);
  await expect(page.getByRole('main').getByRole('status')).toContainText('Your new password is set.');

  // The same link again, from another page (as from the mail, a second time).
  await page.goto('/sign-in');
  await setPassword(page, link, `${cy.password}-second`);
  const alert = page.getByRole('main').getByRole('alert');
  await expect(alert).toHaveText('This link is unknown, expired or already used. Ask for a new link.');
  expect(await seriousViolations(page), 'reset page, link refused').toEqual([]);
  await alert.getByRole('link', { name: 'Ask for a new link.' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);

  // The first new password stands.
  await signIn(page, { email: cy.email, password: first });
});

test('the reset page without a token says so, with a way to ask for a link', async ({ page }) => {
  await page.goto('/reset-password');
  await expect(page.getByRole('heading', { level: 1, name: 'Choose a new password' })).toBeVisible();
  await expect(page.getByRole('main')).toContainText('This address has no reset token');
  await expect(page.getByLabel('New password')).toHaveCount(0);
  await page.getByRole('link', { name: 'Ask for a new link.' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
});
