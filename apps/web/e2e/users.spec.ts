import { expect, type Page, test } from '@playwright/test';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import { ADMIN } from '../playwright.config';
import { API, apiCall, apiLogin } from './api';
import { cell, mainMenu, signIn, signOut } from './steps';

/**
 * The Users screen: roles and names change without a password (only what changed is sent), an
 * admin's new password for a user signs them out everywhere, an admin who demotes themselves is
 * taken out of the admin pages cleanly, the last admin's demotion is refused in words, and the
 * list is searched. Every spec shares one database: each test makes its own accounts (fresh emails), and
 * the ADMIN account is never changed, since every later test signs in with it.
 */

type Account = { name: string; email: string; password: string };

const SEARCH = 'Search users by name or email';

function account(kind: string): Account {
  const id = Math.random().toString(36).slice(2, 8);
  return {
    name: `${kind} ${id}`,
    email: `${kind.toLowerCase()}-${id}@e2e.test`,
    password: `${kind}-pass-${id}`,
  };
}

/** Creates an account through the console's own tRPC route, as the admin signed in on `page`. */
async function makeUser(page: Page, user: Account, role: 'user' | 'artist' | 'admin') {
  const res = await page.request.post('/api/trpc/users.create', {
    data: { username: user.name, email: user.email, password: user.password, role },
    headers: { origin: new URL(page.url()).origin },
  });
  expect(res.ok(), await res.text()).toBe(true);
}

/** The id of `user`'s account, asked of the API as ADMIN. */
async function userIdOf(user: Account): Promise<string> {
  const token = await apiLogin(ADMIN);
  const found = await apiCall<{ data: { id: string; email: string }[] }>(
    'GET',
    `/users?search=${encodeURIComponent(user.email)}`,
    token,
  );
  return found.data.find((u) => u.email === user.email)!.id;
}

/** The Users screen searched down to `user`'s row. */
async function findRow(page: Page, user: Account) {
  await page.goto('/users');
  await page.getByLabel(SEARCH).fill(user.email);
  const row = page.getByRole('row', { name: user.email });
  await expect(row).toBeVisible();
  // The search has answered (the row may have been on the first page before it did): the header
  // and this one row, nothing in flight.
  await expect(page.getByRole('row')).toHaveCount(2);
  await expect(page.getByRole('table')).not.toHaveAttribute('aria-busy', 'true');
  return row;
}

/** The /api/trpc procedures the page calls with POST (mutations), in order, with their input. */
function mutationsOf(page: Page): { procedure: string; input: unknown }[] {
  const calls: { procedure: string; input: unknown }[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (request.method() === 'POST' && pathname.startsWith('/api/trpc/')) {
      calls.push({ procedure: pathname.slice('/api/trpc/'.length), input: request.postDataJSON() });
    }
  });
  return calls;
}

test('an admin changes a role and back, and renames a user, sending only what changed and no password', async ({
  page,
}) => {
  const lou = account('Listener');
  await signIn(page, ADMIN);
  await makeUser(page, lou, 'user');
  const row = await findRow(page, lou);
  await expect(row.getByText('Listener (user)', { exact: true })).toBeVisible();
  const userId = await userIdOf(lou);
  const sent = mutationsOf(page);

  const edit = row.getByRole('button', { name: `Edit ${lou.name}` });
  const dialog = page.getByRole('dialog', { name: `Edit ${lou.name}` });
  for (const role of ['Artist', 'Listener (user)']) {
    await edit.click();
    await expect(dialog.getByLabel('New password')).toHaveValue('');
    await dialog.getByLabel('Role').selectOption({ label: role });
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await expect(dialog).toBeHidden();
    await expect(row.getByText(role, { exact: true })).toBeVisible();
    await expect(edit).toBeFocused();
  }
  expect(sent).toEqual([
    { procedure: 'users.patch', input: { userId, role: 'artist' } },
    { procedure: 'users.patch', input: { userId, role: 'user' } },
  ]);

  // A new name needs no password: the field says it is optional, and only the name is sent.
  const renamed = `${lou.name} Renamed`;
  await edit.click();
  const password = dialog.getByLabel('New password');
  await expect(password).not.toHaveAttribute('aria-required', 'true');
  await expect(password).toHaveAccessibleDescription(/Leave empty to keep the password/);
  await expect(password).toHaveAccessibleDescription(/signs .* out everywhere/);
  await expect(dialog.getByLabel('Name')).toHaveAccessibleDescription(/Up to 50 characters/);
  await dialog.getByLabel('Name').fill(renamed);
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.locator('.toasts')).toContainText(`Saved “${renamed}”.`);
  await expect(cell(row, 'Name')).toHaveText(renamed);
  expect(sent[2]).toEqual({ procedure: 'users.patch', input: { userId, username: renamed } });
  expect(sent).toHaveLength(3);
  await signOut(page);

  // The password is the one they had.
  await signIn(page, lou);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.locator('.whoami-name')).toHaveText(renamed);
});

test('an admin sets a new password: the user is signed out everywhere and signs in with it', async ({
  page,
}) => {
  const sam = account('Reset');
  await signIn(page, ADMIN);
  await makeUser(page, sam, 'user');
  const elsewhere = await apiLogin(sam);
  const row = await findRow(page, sam);
  await row.getByRole('button', { name: `Edit ${sam.name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Edit ${sam.name}` });
  const password = dialog.getByLabel('New password');

  // Over the limit: typing is not cut, the form says why it refuses.
  await password.fill('x'.repeat(129));
  await expect(password).toHaveValue('x'.repeat(129));
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(password).toHaveAttribute('aria-invalid', 'true');
  await expect(password).toHaveAccessibleDescription(/At most 128 characters/);
  await expect(password).toBeFocused();

  const fresh = `${sam.password}-by-admin`;
  await password.fill(fresh);
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.locator('.toasts')).toContainText('signed out everywhere');
  const me = await fetch(`${API}/auth/me`, { headers: { authorization: `Bearer ${elsewhere}` } });
  expect(me.status).toBe(401);
  await signOut(page);
  await signIn(page, { email: sam.email, password: fresh });
});

test('an admin who demotes themselves leaves the admin pages without an error', async ({ page }) => {
  const bea = account('Admin');
  await signIn(page, ADMIN);
  await makeUser(page, bea, 'admin');
  await signOut(page);

  await signIn(page, bea);
  await expect(page.locator('.whoami .badge')).toHaveText('Admin');
  const refused: string[] = [];
  page.on('response', (response) => {
    if (response.url().includes('/api/trpc/') && response.status() === 403) refused.push(response.url());
  });
  const row = await findRow(page, bea);
  await row.getByRole('button', { name: `Edit ${bea.name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Edit ${bea.name}` });
  await dialog.getByLabel('Role').selectOption({ label: 'Listener (user)' });
  // ADMIN is still an admin, so the API lets this one go.
  await dialog.getByRole('button', { name: 'Save changes' }).click();

  // A listener's home, the shell showing the new role, and no admin page left.
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  await expect(page.locator('.whoami .badge')).toHaveText('Listener');
  const nav = await mainMenu(page);
  await expect(nav.getByRole('link', { name: 'Playlists' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Users' })).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toHaveCount(0);
  // Nothing red on the way: no refusal shown, and the console never asked for the users list
  // with its new role.
  await expect(page.locator('.notice-error')).toHaveCount(0);
  await expect(page.getByText('Only admins may list users')).toHaveCount(0);
  expect(refused).toEqual([]);
});

test('the last admin’s demotion is refused in words, the dialog open and focused on them', async ({
  page,
}) => {
  // A real last admin would mean demoting ADMIN (every later spec signs in with it) and any admin
  // the other specs made. The API's refusal itself is covered below the browser (the procedure
  // and HTTP tests of users.patch); here, the console's handling of it. The call is answered
  // as the API answers it on /trpc, and the Next route (src/app/api/trpc/[trpc]/route.ts) passes
  // the API's status and body through untouched: a non-batched tRPC error envelope
  // `{ error: { message, code, data } }` from the API's one formatter (rpcErrorShape in
  // packages/api-router/src/trpc.ts): tRPC's JSON-RPC number for CONFLICT, and in `data` the
  // contract's code, the HTTP status and the procedure's path. A fresh admin plays the part, so
  // should the route ever miss, no one else's account changes.
  const cleo = account('Admin');
  await signIn(page, ADMIN);
  await makeUser(page, cleo, 'admin');
  await signOut(page);
  await signIn(page, cleo);

  const isPatch = (url: URL) => url.pathname === '/api/trpc/users.patch';
  let answered = 0;
  await page.route(isPatch, async (route) => {
    answered += 1;
    await route.fulfill({
      status: 409,
      contentType: 'application/json',
      body: JSON.stringify({
        error: {
          message: 'This is the last admin: make another user an admin first, there must always be one',
          code: TRPC_ERROR_CODES_BY_KEY.CONFLICT,
          data: { code: 'CONFLICT', httpStatus: 409, path: 'users.patch' },
        },
      }),
    });
  });

  const row = await findRow(page, cleo);
  const edit = row.getByRole('button', { name: `Edit ${cleo.name}` });
  await edit.click();
  const dialog = page.getByRole('dialog', { name: `Edit ${cleo.name}` });
  await dialog.getByLabel('Role').selectOption({ label: 'Listener (user)' });
  await dialog.getByRole('button', { name: 'Save changes' }).click();

  const words = 'You are the only admin: make someone else an admin first.';
  await expect(dialog.locator('.notice-error')).toHaveText(words);
  await expect(page.locator(':focus')).toHaveText(words);
  await expect(dialog).toBeVisible();
  expect(answered).toBe(1);
  // The console still takes them for an admin, on the same page.
  await expect(page).toHaveURL(/\/users(\?|$)/);
  await expect(page.locator('.whoami .badge')).toHaveText('Admin');
  await page.unroute(isPatch);

  await dialog.getByRole('button', { name: 'Cancel' }).click();
  // The refused role is still chosen in the form, unsaved: the dialog asks before it is lost.
  await dialog.getByRole('button', { name: 'Discard' }).click();
  await expect(dialog).toBeHidden();
  await expect(edit).toBeFocused();
  await expect(row.getByText('Admin', { exact: true })).toBeVisible();
});

test('the search finds users by part of the email or the name, from page 1, and says when none match', async ({
  page,
}) => {
  // Letters only: search folds punctuation, so a term's digits are words of their own, and the
  // tag must not hold any of the numbers searched for.
  const id = Array.from({ length: 6 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join(
    '',
  );
  // One more than a page (20) share the tag, so the search has a second page.
  const finders = Array.from({ length: 21 }, (_, i) => ({
    name: `Finder ${id} ${String(i + 1).padStart(2, '0')}`,
    email: `finder-${i + 1}-${id}@e2e.test`,
    password: `finder-pass-${id}`,
  }));
  await signIn(page, ADMIN);
  for (const finder of finders) await makeUser(page, finder, 'user');
  await page.goto('/users');
  const search = page.getByLabel(SEARCH);
  const rows = page.getByRole('row');

  // Part of an email.
  await search.fill(`finder-17-${id}`);
  await expect(rows).toHaveCount(2); // the header and Finder 17
  await expect(page.getByRole('row', { name: finders[16]!.email })).toBeVisible();
  await expect(page.getByRole('cell', { name: ADMIN.email })).toHaveCount(0);

  // Part of a name, in another letter case.
  await search.fill(`finder ${id} 13`);
  await expect(rows).toHaveCount(2);
  await expect(page.getByRole('row', { name: finders[12]!.email })).toBeVisible();

  // The tag: two pages. A narrower search from page 2 starts again on page 1.
  await search.fill(id);
  await expect(page.getByText('Page 1 of 2 · 21 items')).toBeVisible();
  await page.getByRole('button', { name: 'Next →' }).click();
  await expect(page.getByText('Page 2 of 2 · 21 items')).toBeVisible();
  await expect(rows).toHaveCount(2);
  // Words in any order; "20" is in one name and one email only ("2" alone would also be in every
  // email's "e2e").
  await search.fill(`Finder ${id} 20`);
  await expect(page.getByText('1 item', { exact: true })).toBeVisible();
  await expect(rows).toHaveCount(2);

  // While a new search is on its way, the last rows stay and the page says it is searching.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const isList = (url: URL) => url.pathname === '/api/trpc/users.list';
  await page.route(isList, async (route) => {
    await held;
    await route.continue();
  });
  await search.fill(`finder-15-${id}`);
  await expect(page.getByText('Searching…')).toBeVisible();
  await expect(page.getByRole('row', { name: finders[19]!.email })).toBeVisible(); // Finder 20, kept
  release();
  await expect(page.getByRole('row', { name: finders[14]!.email })).toBeVisible();
  await expect(page.getByText('Searching…')).toHaveCount(0);
  await expect(rows).toHaveCount(2);
  await page.unroute(isList);

  // Nonsense.
  await search.fill(`no-such-user-${id}-zzz`);
  await expect(page.getByText(`No users match “no-such-user-${id}-zzz”.`)).toBeVisible();
  await expect(rows).toHaveCount(0);
});
