import { expect, type Page, test } from '@playwright/test';
import { ADMIN } from '../playwright.config';
import { API, apiCall, apiLogin, uniqueSuffix } from './api';
import { seriousViolations } from './axe';
import { cell, followHeaderLink, mainMenu, screenshot, signIn } from './steps';

/**
 * API keys under My account (made with scopes and an expiry, the token shown once and copied,
 * revoked), and the admins' Activity page: the log, a filter kept in the address, and a record's
 * history opened from its page. Every record is made here, with names of its own.
 */

/** A listener account of this test's own, made through the API's sign-up. */
async function listener(): Promise<{ name: string; email: string; password: string }> {
  const id = uniqueSuffix();
  const who = { name: `Keys ${id}`, email: `keys-${id}@e2e.test`, password: `keys-pass-${id}` };
  await apiCall('POST', '/users', null, { username: who.name, email: who.email, password: who.password });
  return who;
}

/** A GET on `/v1` with this bearer token: its status. */
async function statusWith(token: string, path: string): Promise<number> {
  return (await fetch(`${API}${path}`, { headers: { authorization: `Bearer ${token}` } })).status;
}

/** A date a year from now, as a date input takes it (yyyy-mm-dd). */
function nextYear(): string {
  const day = new Date();
  day.setFullYear(day.getFullYear() + 1);
  return `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, '0')}-${String(day.getDate()).padStart(2, '0')}`;
}

async function openApiKeys(page: Page) {
  await followHeaderLink(page, 'My account');
  await page.getByRole('link', { name: 'Manage your API keys' }).click();
  await expect(page).toHaveURL(/\/account\/api-keys$/);
  await expect(page.getByRole('heading', { level: 1, name: 'API keys' })).toBeVisible();
}

test('a listener makes an API key, sees its token once, copies it, and revokes it', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const who = await listener();
  await signIn(page, who);
  // The log is for admins: no Activity in a listener's menu.
  await expect((await mainMenu(page)).getByRole('link', { name: 'Activity' })).toHaveCount(0);
  await openApiKeys(page);
  await expect(page.getByText('You have no API keys yet.')).toBeVisible();

  await page.getByRole('button', { name: 'New API key' }).click();
  const dialog = page.getByRole('dialog', { name: 'New API key' });
  // Nothing filled in: refused beside each field, the focus on the first.
  await dialog.getByRole('button', { name: 'Make key' }).click();
  await expect(dialog.getByText('Enter a name for the key')).toBeVisible();
  await expect(dialog.getByText('Choose at least one thing the key may do')).toBeVisible();
  await expect(dialog.getByRole('textbox', { name: 'Name' })).toBeFocused();
  expect(await seriousViolations(page)).toEqual([]);

  const name = `Nightly export ${uniqueSuffix()}`;
  await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
  await dialog
    .getByRole('group', { name: 'Catalogue' })
    .getByRole('checkbox', { name: /catalogue:read/ })
    .check();
  await dialog.getByLabel('Expires after (optional)').fill(nextYear());
  await expect(dialog.getByText('Choose at least one thing the key may do')).toBeHidden();
  await dialog.getByRole('button', { name: 'Make key' }).click();

  // The token, once, with the warning; copied by its button.
  const shown = page.getByRole('dialog', { name: 'Your new API key' });
  await expect(shown.getByText('it will not be shown again')).toBeVisible();
  const box = shown.getByLabel(`Token of “${name}”`);
  const token = await box.inputValue();
  expect(token).toMatch(/^mc_/);
  await shown.getByRole('button', { name: 'Copy token' }).click();
  await expect(shown.getByText('Copied to the clipboard.')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
  expect(await seriousViolations(page)).toEqual([]);
  await screenshot(page, 'api-key-token');
  await shown.getByRole('button', { name: 'Done' }).click();
  await expect(shown).toBeHidden();

  const row = page.getByRole('row', { name: new RegExp(name) });
  await expect(cell(row, 'Prefix')).toContainText(token.slice(0, 12));
  await expect(cell(row, 'Scopes')).toContainText('catalogue:read');
  await expect(cell(row, 'Last used')).toContainText('never');
  await expect(cell(row, 'Expires')).not.toContainText('never');
  await screenshot(page, 'api-keys');
  // Never again: not on the page, not after a reload.
  await expect(page.getByText(token)).toHaveCount(0);
  await page.reload();
  await expect(row).toBeVisible();
  expect(await page.content()).not.toContain(token);

  // The key works within its scope, and stops once revoked.
  expect(await statusWith(token, '/songs')).toBe(200);
  await row.getByRole('button', { name: `Revoke ${name}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Revoke API key' });
  await expect(confirm).toContainText(name);
  await confirm.getByRole('button', { name: 'Revoke API key' }).click();
  await expect(confirm).toBeHidden();
  await expect(row).toHaveCount(0);
  await expect(page.getByText('You have no API keys yet.')).toBeVisible();
  expect(await statusWith(token, '/songs')).toBe(401);
});

test('an admin reads the Activity log with a filter, and a song’s history from its page', async ({
  page,
}) => {
  const admin = await apiLogin(ADMIN);
  const me = await apiCall<{ username: string }>('GET', '/auth/me', admin);
  const suffix = uniqueSuffix();
  const artist = await apiCall<{ id: string }>('POST', '/artists', admin, { name: `Log Band ${suffix}` });
  const song = await apiCall<{ id: string }>('POST', '/songs', admin, {
    title: `Log Song ${suffix}`,
    duration: 200,
    artistIds: [artist.id],
  });
  // A change made through an API key: the log says which key made it.
  const key = await apiCall<{ token: string }>('POST', '/api-keys', admin, {
    name: `Log key ${suffix}`,
    scopes: ['catalogue:write'],
  });
  await apiCall('PATCH', `/songs/${song.id}`, key.token, { title: `Log Song ${suffix} (live)` });

  await signIn(page, ADMIN);
  await followHeaderLink(page, 'Activity');
  await expect(page.getByRole('heading', { level: 1, name: 'Activity' })).toBeVisible();
  const events = page.getByRole('list', { name: 'Events, newest first' });
  await expect(events.getByRole('listitem').first()).toBeVisible();

  // A filter, kept in the address: only song updates.
  await page.getByLabel('Action').selectOption({ label: 'Song updated' });
  await expect(page).toHaveURL(/[?&]action=song\.updated/);
  const update = events.getByRole('listitem').first();
  await expect(update).toContainText('Song updated');
  await expect(update.getByRole('link', { name: `Song “Log Song ${suffix} (live)”` })).toBeVisible();
  await expect(update).toContainText(`by ${me.username}`);
  await expect(update).toContainText('via API key');
  const change = update.getByRole('row', { name: /title/ });
  await expect(change).toContainText(`Log Song ${suffix}`);
  await expect(change).toContainText(`Log Song ${suffix} (live)`);
  // The address alone brings the same view back.
  await page.reload();
  await expect(page.getByLabel('Action')).toHaveValue('song.updated');
  // Whose writes: picked by name, kept in the address beside the action.
  await page.getByRole('combobox', { name: 'Filter by user: a name, an email or an id' }).fill(me.username);
  await page.getByRole('option', { name: new RegExp(`^${me.username}`) }).click();
  await expect(page).toHaveURL(/[?&]user=[0-9a-f-]{36}/);
  await expect(page).toHaveURL(/[?&]action=song\.updated/);
  await expect(page.getByRole('button', { name: `Any user, not only ${me.username}` })).toBeVisible();
  await expect(events.getByRole('listitem').first()).toContainText(`by ${me.username}`);
  expect(await seriousViolations(page)).toEqual([]);
  await screenshot(page, 'activity');

  // The song's history, from its page: its two events, newest first, and back to the song.
  await page.goto(`/songs/${song.id}`);
  await page.getByRole('link', { name: 'History' }).click();
  await expect(page).toHaveURL(new RegExp(`/activity\\?type=song&id=${song.id}$`));
  await expect(page.getByLabel('Record type')).toHaveValue('song');
  await expect(page.getByLabel('Record id')).toHaveValue(song.id);
  const history = page.getByRole('list', { name: 'Events, newest first' }).getByRole('listitem');
  await expect(history).toHaveCount(2);
  await expect(history.nth(0)).toContainText('Song updated');
  await expect(history.nth(1)).toContainText('Song created');
  await history
    .nth(1)
    .getByRole('link', { name: /^Song “/ })
    .click();
  await expect(page).toHaveURL(new RegExp(`/songs/${song.id}$`));
});
