import { expect, type Page, test } from '@playwright/test';
import { API, apiCall, apiLogin, uniqueSuffix } from './api';
import { seriousViolations } from './axe';
import { followHeaderLink, signIn, signOut } from './steps';

/**
 * One's own account: signing up (signed in at once; limits said, never cut), the password shown
 * and hidden, and the account page (a new name saved without a password, a new email or password
 * with the current one, a wrong current password refused beside its field). Every spec shares one database: each test makes its own accounts
 * (fresh emails), and ADMIN is never touched.
 */

type Account = { name: string; email: string; password: string };

function account(kind: string): Account {
  const id = uniqueSuffix();
  return {
    name: `${kind} ${id}`,
    email: `${kind.toLowerCase()}-${id}@e2e.test`,
    password: `${kind}-pass-${id}`,
  };
}

/** A listener account made through the API's public sign-up. */
async function signedUp(kind: string): Promise<Account> {
  const made = account(kind);
  await apiCall('POST', '/users', null, { username: made.name, email: made.email, password: made.password });
  return made;
}

async function openAccount(page: Page) {
  await followHeaderLink(page, 'My account');
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole('heading', { level: 1, name: 'My account' })).toBeVisible();
}

test('a visitor signs up from the sign-in page and lands signed in on their start page', async ({ page }) => {
  const lee = account('Signup');
  await page.goto('/sign-in');
  await page.getByRole('link', { name: 'Create an account' }).click();
  await expect(page).toHaveURL(/\/sign-up$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Create an account' })).toBeVisible();
  await expect(page).toHaveTitle('Create an account · Music Catalogue');
  await expect(page.getByRole('link', { name: 'Sign in', exact: true })).toHaveAttribute('href', '/sign-in');

  // Nothing filled in: each field says what it needs, and the first one takes the focus.
  const create = page.getByRole('button', { name: 'Create account' });
  await create.click();
  const name = page.getByLabel('Name');
  const email = page.getByLabel('Email');
  const password = page.getByLabel('Password');
  for (const field of [name, email, password]) await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(name).toBeFocused();
  await expect(name).toHaveAccessibleDescription(/your name/i);
  await expect(password).toHaveAccessibleDescription(/8 to 128 characters/);
  expect(await seriousViolations(page), 'sign-up with errors').toEqual([]);

  // A password too short: refused before anything is sent, the focus on it.
  await name.fill(lee.name);
  await email.fill(lee.email);
  await password.fill('short');
  await create.click();
  await expect(password).toHaveAttribute('aria-invalid', 'true');
  await expect(password).toBeFocused();
  await expect(name).not.toHaveAttribute('aria-invalid', 'true');

  await password.fill(lee.password);
  await create.click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.locator('.whoami-name')).toHaveText(lee.name);
  await expect(page.locator('.whoami .badge')).toHaveText('Listener');
  // Signed in as sign-in does it: the tokens in httpOnly cookies only.
  const tokens = (await page.context().cookies()).filter(
    (c) => c.name === 'mc_access' || c.name === 'mc_refresh',
  );
  expect(tokens).toHaveLength(2);
  expect(tokens.every((c) => c.httpOnly)).toBe(true);

  // A real account: signed out, they sign in with what they chose.
  await signOut(page);
  await signIn(page, lee);
  await expect(page.locator('.whoami-name')).toHaveText(lee.name);
});

test('a sign-up password of 129 characters or a name of 51 is refused in words, never cut', async ({
  page,
}) => {
  const long = account('Long');
  const password = 'p'.repeat(129);
  const name = 'N'.repeat(51);
  await page.goto('/sign-up');
  const nameField = page.getByLabel('Name');
  const passwordField = page.getByLabel('Password');
  // The limits are said before anything is typed, and typing is never stopped at them.
  await expect(nameField).toHaveAccessibleDescription(/Up to 50 characters/);
  await expect(passwordField).toHaveAccessibleDescription(/8 to 128 characters/);
  for (const field of [nameField, passwordField]) await expect(field).not.toHaveAttribute('maxlength');
  await nameField.fill(name);
  await page.getByLabel('Email').fill(long.email);
  await passwordField.fill(password);
  await expect(nameField).toHaveValue(name);
  await expect(passwordField).toHaveValue(password);

  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(nameField).toHaveAttribute('aria-invalid', 'true');
  await expect(nameField).toHaveAccessibleDescription(/At most 50 characters/);
  await expect(nameField).toBeFocused();
  await expect(passwordField).toHaveAttribute('aria-invalid', 'true');
  await expect(passwordField).toHaveAccessibleDescription(/At most 128 characters/);
  await expect(passwordField).toHaveValue(password);
  await expect(page).toHaveURL(/\/sign-up$/);

  // Within the limits, the account is made with exactly what was typed.
  await nameField.fill(long.name);
  await passwordField.fill(password.slice(0, 128));
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/$/);
  await signOut(page);
  await signIn(page, { email: long.email, password: password.slice(0, 128) });
});

test('signing up with an email that has an account says so in words, with a way to sign in', async ({
  page,
}) => {
  const taken = await signedUp('Taken');
  await page.goto('/sign-up?next=%2Fsongs');
  await page.getByLabel('Name').fill('Someone Else');
  // Emails are one account whatever their letter case.
  await page.getByLabel('Email').fill(taken.email.toUpperCase());
  await page.getByLabel('Password').fill('another-password-1');
  await page.getByRole('button', { name: 'Create account' }).click();
  // In the page, not Next's route announcer (an alert region of its own).
  const alert = page.getByRole('main').getByRole('alert');
  await expect(alert).toHaveText('An account with this email exists. Sign in instead.');
  await expect(page).toHaveURL(/\/sign-up\?next=%2Fsongs$/);
  const cookies = await page.context().cookies();
  expect(cookies.filter((c) => c.name === 'mc_access' || c.name === 'mc_refresh')).toEqual([]);

  // The link keeps where they were going.
  await alert.getByRole('link', { name: 'Sign in instead.' }).click();
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fsongs$/);
  await page.getByLabel('Email').fill(taken.email);
  await page.getByLabel('Password').fill(taken.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/songs$/);
});

test('the password is shown and hidden again with its toggle', async ({ page }) => {
  await page.goto('/sign-in');
  const password = page.getByLabel('Password');
  await password.fill('typed-secret-1');
  const show = page.getByRole('button', { name: 'Show password' });
  await expect(password).toHaveAttribute('type', 'password');
  await expect(show).toHaveAttribute('aria-pressed', 'false');
  await expect(show).toHaveAttribute('aria-controls', (await password.getAttribute('id'))!);
  const box = (await show.boundingBox())!;
  expect(box.width).toBeGreaterThanOrEqual(24);
  expect(box.height).toBeGreaterThanOrEqual(24);

  await show.click();
  await expect(password).toHaveAttribute('type', 'text');
  await expect(password).toHaveValue('typed-secret-1');
  const hide = page.getByRole('button', { name: 'Hide password' });
  await expect(hide).toHaveAttribute('aria-pressed', 'true');
  await hide.click();
  await expect(password).toHaveAttribute('type', 'password');
  await expect(show).toHaveAttribute('aria-pressed', 'false');

  // Shown when the form is sent, it is hidden again (browsers keep typed text for autofill).
  await show.click();
  await expect(password).toHaveAttribute('type', 'text');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(password).toHaveAttribute('type', 'password');
});

test('my account: a new name is saved without any password and shown in the shell', async ({ page }) => {
  const rae = await signedUp('Rename');
  await signIn(page, rae);
  await openAccount(page);
  await expect(page).toHaveTitle('My account · Music Catalogue');
  const facts = page.locator('.facts');
  await expect(facts).toContainText(rae.name);
  await expect(facts).toContainText(rae.email);
  await expect(facts).toContainText('Listener (user)');
  await expect(facts).toContainText('Member since');
  expect(await seriousViolations(page), 'account').toEqual([]);

  const details = page.getByRole('form', { name: 'Name and email' });
  const name = details.getByLabel('Name');
  const current = details.getByLabel('Current password');
  await expect(name).toHaveAccessibleDescription(/Up to 50 characters/);
  await expect(current).toHaveAccessibleDescription(/only to change your email/);
  await expect(current).not.toHaveAttribute('aria-required', 'true');

  const renamed = `${rae.name} Renamed`;
  await name.fill(renamed);
  await details.getByRole('button', { name: 'Save name and email' }).click();
  await expect(details.getByRole('status')).toHaveText('Your name is saved.');
  await expect(page.locator('.whoami-name')).toHaveText(renamed);
  await expect(facts).toContainText(renamed);
  await expect(current).not.toHaveAttribute('aria-invalid', 'true');

  // Saved on the API, and the password is the one they had.
  await signOut(page);
  await signIn(page, rae);
  await expect(page.locator('.whoami-name')).toHaveText(renamed);
});

test('my account: a new email needs the current password, and signs in from then on', async ({ page }) => {
  const eve = await signedUp('Email');
  const moved = `moved-${eve.email}`;
  await signIn(page, eve);
  await openAccount(page);
  const details = page.getByRole('form', { name: 'Name and email' });
  const current = details.getByLabel('Current password');
  const save = details.getByRole('button', { name: 'Save name and email' });

  // Without the current password nothing is sent: the form asks for it.
  await details.getByLabel('Email').fill(moved);
  await save.click();
  await expect(current).toHaveAttribute('aria-invalid', 'true');
  await expect(current).toHaveAccessibleDescription(/current password to change your email/);
  await expect(current).toBeFocused();

  await current.fill(eve.password);
  await save.click();
  await expect(details.getByRole('status')).toHaveText('Your email is saved.');
  await expect(page.locator('.facts')).toContainText(moved);
  await expect(current).toHaveValue('');

  await signOut(page);
  await signIn(page, { email: moved, password: eve.password });
});

test('my account: a wrong current password is refused beside its field and nothing changes', async ({
  page,
}) => {
  const wes = await signedUp('Wrong');
  await signIn(page, wes);
  await openAccount(page);

  const details = page.getByRole('form', { name: 'Name and email' });
  const current = details.getByLabel('Current password');
  await details.getByLabel('Email').fill(`not-saved-${wes.email}`);
  await current.fill('not-my-password');
  await details.getByRole('button', { name: 'Save name and email' }).click();
  // The API's 422 on currentPassword, beside the field.
  await expect(current).toHaveAttribute('aria-invalid', 'true');
  await expect(current).toHaveAccessibleDescription(/Does not match your current password/);
  await expect(current).toBeFocused();
  await expect(details.getByRole('status')).toHaveText('');
  expect(await seriousViolations(page), 'account, wrong password').toEqual([]);

  const change = page.getByRole('form', { name: 'Change password' });
  await change.getByLabel('Current password').fill('still-not-it');
  await change.getByLabel(/^New password/).fill('a-new-password-1');
  await change.getByLabel('Confirm new password').fill('a-new-password-1');
  await change.getByRole('button', { name: 'Change password' }).click();
  await expect(change.getByLabel('Current password')).toHaveAccessibleDescription(
    /Does not match your current password/,
  );
  await expect(change.getByLabel('Current password')).toBeFocused();

  // Still signed in, as they were, with their email and their password.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'My account' })).toBeVisible();
  await expect(page.locator('.facts')).toContainText(wes.email);
  await signOut(page);
  await signIn(page, wes);
});

test('my account: a new password signs out the other devices; only the new one signs in', async ({
  page,
}) => {
  const pia = await signedUp('Password');
  const newPassword = `${pia.password}-new`;
  const elsewhere = await apiLogin(pia);
  await signIn(page, pia);
  await openAccount(page);

  const change = page.getByRole('form', { name: 'Change password' });
  const current = change.getByLabel('Current password');
  const fresh = change.getByLabel(/^New password/);
  const confirm = change.getByLabel('Confirm new password');
  const submit = change.getByRole('button', { name: 'Change password' });
  await expect(fresh).toHaveAccessibleDescription(/8 to 128 characters/);

  // The new one typed twice differently: refused before anything is sent.
  await current.fill(pia.password);
  await fresh.fill(newPassword);
  await confirm.fill(`${newPassword}-typo`);
  await submit.click();
  await expect(confirm).toHaveAttribute('aria-invalid', 'true');
  await expect(confirm).toBeFocused();
  await expect(confirm).toHaveAccessibleDescription(/not the same as the new password/);

  await confirm.fill(newPassword);
  await submit.click();
  await expect(change.getByRole('status')).toHaveText(
    'Your password is changed. Your other devices were signed out; this one stays signed in.',
  );
  for (const field of [current, fresh, confirm]) await expect(field).toHaveValue('');
  // The other session is over; this one goes on.
  const other = await fetch(`${API}/auth/me`, { headers: { authorization: `Bearer ${elsewhere}` } });
  expect(other.status).toBe(401);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'My account' })).toBeVisible();
  await expect(page.locator('.whoami-name')).toHaveText(pia.name);
  await signOut(page);

  await page.getByLabel('Email').fill(pia.email);
  await page.getByLabel('Password').fill(pia.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.locator('.notice-error')).toHaveText('The email or the password is not right.');
  await signIn(page, { email: pia.email, password: newPassword });
  await expect(page.locator('.whoami-name')).toHaveText(pia.name);
});

test('on a phone, the account is in the menu', async ({ page }) => {
  const phil = await signedUp('Phone');
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, phil);
  // Folded away with the menu until it is opened.
  await expect(page.getByRole('link', { name: 'My account' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My account' }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole('heading', { level: 1, name: 'My account' })).toBeVisible();
});
