import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { ADMIN } from '../playwright.config';
import { apiCall, apiLogin, uniqueSuffix } from './api';
import { seriousViolations } from './axe';
import { cell, followHeaderLink, screenshot, signIn } from './steps';

/**
 * Webhooks under My account, against a receiver of this spec's own on 127.0.0.1 (the e2e API
 * allows http: and loopback, e2e/start-api.mjs): made for song events, the secret shown once, a
 * test ping and a song's change delivered and listed, paused, enabled again and deleted; a URL
 * the API refuses, beside its field; a receiver's 500 shown, then the delivery sent again.
 */

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: { type: string; resource: { type: string; id: string } };
}

/** What the receiver got, in order; it answers 204, or what `answers` says for a path. */
const received: Received[] = [];
const answers = new Map<string, number>();
let receiver: Server;
let base = '';

test.beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      const path = req.url ?? '';
      received.push({ path, headers: req.headers, body: JSON.parse(body || '{}') });
      res.writeHead(answers.get(path) ?? 204);
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});

test.afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

/** What reached the receiver on `path`. */
const at = (path: string) => received.filter((request) => request.path === path);
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function openWebhooks(page: Page) {
  await followHeaderLink(page, 'My account');
  await page.getByRole('link', { name: 'Manage your webhooks' }).click();
  await expect(page).toHaveURL(/\/account\/webhooks$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible();
}

/** Fills the New webhook dialog with `url` and every song event, and sends it. */
async function makeWebhook(page: Page, url: string): Promise<Locator> {
  await page.getByRole('button', { name: 'New webhook' }).click();
  const dialog = page.getByRole('dialog', { name: 'New webhook' });
  await dialog.getByRole('textbox', { name: 'URL' }).fill(url);
  const songs = dialog.getByRole('group', { name: 'Songs' });
  await songs.getByRole('checkbox', { name: /All song events/ }).check();
  // Every type of songs is in "all of them": shown ticked, not to be picked one by one.
  await expect(songs.getByRole('checkbox', { name: /song\.created/ })).toBeChecked();
  await expect(songs.getByRole('checkbox', { name: /song\.created/ })).toBeDisabled();
  await dialog.getByRole('button', { name: 'Make webhook' }).click();
  return dialog;
}

/** The deliveries' row of the delivery of `type` (a test ping: "Test ping"). */
const deliveryRow = (deliveries: Locator, type: string) =>
  deliveries.getByRole('row').filter({
    has: deliveries.page().locator('td[data-label="Event"]', { hasText: new RegExp(`^${escaped(type)}$`) }),
  });

test('a listener makes a webhook for songs, sees its secret once, pings it, gets a song, pauses and deletes it', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const id = uniqueSuffix();
  const who = { email: `hooks-${id}@e2e.test`, password: `hooks-pass-${id}` };
  await apiCall('POST', '/users', null, { username: `Hooks ${id}`, ...who });
  await signIn(page, who);
  await openWebhooks(page);
  await expect(page.getByText('You have no webhooks yet.')).toBeVisible();

  const path = `/hooks/${id}`;
  const url = `${base}${path}`;
  await page.getByRole('button', { name: 'New webhook' }).click();
  const form = page.getByRole('dialog', { name: 'New webhook' });
  // User events are for admins: a listener is not offered them.
  await expect(form.getByRole('group', { name: 'Songs' })).toBeVisible();
  await expect(form.getByRole('group', { name: 'Users' })).toHaveCount(0);
  await form.getByRole('button', { name: 'Make webhook' }).click();
  await expect(form.getByText('Enter the URL events are sent to')).toBeVisible();
  await expect(form.getByText('Choose at least one event type')).toBeVisible();
  await expect(form.getByRole('textbox', { name: 'URL' })).toBeFocused();
  await form.getByRole('button', { name: 'Cancel' }).click();
  await makeWebhook(page, url);

  // The secret, once, with the warning; copied by its button.
  const shown = page.getByRole('dialog', { name: 'Your new webhook' });
  await expect(shown.getByText('it will not be shown again')).toBeVisible();
  const secret = await shown.getByLabel('Signing secret').inputValue();
  expect(secret).toMatch(/^whsec_/);
  await shown.getByRole('button', { name: 'Copy secret' }).click();
  await expect(shown.getByText('Copied to the clipboard.')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  expect(await seriousViolations(page)).toEqual([]);
  await shown.getByRole('button', { name: 'Done' }).click();
  await expect(shown).toBeHidden();
  await expect(page.getByText(secret)).toHaveCount(0);

  const row = page.getByRole('row', { name: new RegExp(escaped(url)) });
  await expect(cell(row, 'Events')).toHaveText('Every song event');
  await expect(cell(row, 'State')).toHaveText('Enabled');
  await expect(cell(row, 'Failures in a row')).toHaveText('0');

  // A test ping: delivered, answered 204, listed; sent again with the same webhook-id.
  await row.getByRole('button', { name: `Deliveries to ${url}` }).click();
  const deliveries = page.getByRole('region', { name: `Deliveries to ${url}` });
  await expect(deliveries.getByText('Nothing sent yet.')).toBeVisible();
  await deliveries.getByRole('button', { name: 'Send test ping' }).click();
  await expect(deliveries.getByRole('status').getByText('Test ping: succeeded (204).')).toBeVisible();
  const ping = deliveryRow(deliveries, 'Test ping');
  await expect(cell(ping, 'Status')).toHaveText('Succeeded');
  await expect(cell(ping, 'Answer')).toHaveText('204');
  await expect(cell(ping, 'Attempts')).toHaveText('1');
  expect(at(path).map((request) => request.body.type)).toEqual(['webhook.ping']);
  await ping.getByRole('button', { name: 'Send again' }).click();
  await expect(deliveries.getByText('Test ping sent again: succeeded (204).')).toBeVisible();
  await expect(cell(ping, 'Attempts')).toHaveText('2');
  const [first, again] = at(path);
  expect(again?.headers['webhook-id']).toBe(first?.headers['webhook-id']);
  expect(first?.headers['webhook-signature']).toMatch(/^v1,/);
  expect(await seriousViolations(page)).toEqual([]);
  await screenshot(page, 'webhooks');

  // A song made (by an admin, through the API): its event reaches the receiver and is listed.
  const admin = await apiLogin(ADMIN);
  const artist = await apiCall<{ id: string }>('POST', '/artists', admin, { name: `Hook Band ${id}` });
  const song = await apiCall<{ id: string }>('POST', '/songs', admin, {
    title: `Hook Song ${id}`,
    duration: 200,
    artistIds: [artist.id],
  });
  await expect
    .poll(() => at(path).find((request) => request.body.resource?.id === song.id)?.body.type)
    .toBe('song.created');
  const created = deliveryRow(deliveries, 'song.created');
  await expect(async () => {
    await deliveries.getByRole('button', { name: 'Refresh' }).click();
    await expect(cell(created, 'Status')).toHaveText('Succeeded', { timeout: 1000 });
  }).toPass();
  await expect(cell(created, 'Answer')).toHaveText('204');

  // Paused, then enabled again.
  await row.getByRole('button', { name: `Pause ${url}` }).click();
  await expect(cell(row, 'State')).toHaveText('Disabled Paused by its owner');
  await row.getByRole('button', { name: `Enable ${url} again` }).click();
  await expect(cell(row, 'State')).toHaveText('Enabled');
  await expect(row.getByRole('button', { name: `Pause ${url}` })).toBeVisible();

  // Deleted, after a confirmation: its deliveries go with it.
  await row.getByRole('button', { name: `Delete ${url}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete webhook' });
  await expect(confirm).toContainText(url);
  await confirm.getByRole('button', { name: 'Delete webhook' }).click();
  await expect(confirm).toBeHidden();
  await expect(row).toHaveCount(0);
  await expect(deliveries).toHaveCount(0);
  await expect(page.getByText('You have no webhooks yet.')).toBeVisible();
});

test('an admin is offered user events, sees a refused URL beside its field, and a 500 sent again', async ({
  page,
}) => {
  await signIn(page, ADMIN);
  await openWebhooks(page);
  const dialog = await makeWebhook(page, 'ftp://x');
  await expect(dialog.getByRole('group', { name: 'Users' })).toBeVisible();
  // The API's 422, beside the URL, which takes the focus.
  const field = dialog.getByRole('textbox', { name: 'URL' });
  await expect(dialog.getByText('Must be an https: or http: URL')).toBeVisible();
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(field).toBeFocused();
  await expect(dialog.getByText('Some fields need attention.')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await screenshot(page, 'webhook-form');

  // A receiver that fails: the ping's 500 shows (a ping is tried once), and it is sent again.
  const path = `/failing/${uniqueSuffix()}`;
  const url = `${base}${path}`;
  answers.set(path, 500);
  await field.fill(url);
  await expect(dialog.getByText('Must be an https: or http: URL')).toBeHidden();
  await dialog.getByRole('button', { name: 'Make webhook' }).click();
  await page.getByRole('dialog', { name: 'Your new webhook' }).getByRole('button', { name: 'Done' }).click();
  const row = page.getByRole('row', { name: new RegExp(escaped(url)) });
  await row.getByRole('button', { name: `Deliveries to ${url}` }).click();
  const deliveries = page.getByRole('region', { name: `Deliveries to ${url}` });
  await deliveries.getByRole('button', { name: 'Send test ping' }).click();
  await expect(deliveries.getByText('Test ping: failed (500).')).toBeVisible();
  const ping = deliveryRow(deliveries, 'Test ping');
  await expect(cell(ping, 'Status')).toHaveText('Failed');
  await expect(cell(ping, 'Answer')).toHaveText('500');
  await expect(cell(row, 'Failures in a row')).toHaveText('1');
  expect(await seriousViolations(page)).toEqual([]);
  answers.delete(path);
  await ping.getByRole('button', { name: 'Send again' }).click();
  await expect(deliveries.getByText('Test ping sent again: succeeded (204).')).toBeVisible();
  await expect(cell(ping, 'Status')).toHaveText('Succeeded');
  await expect(cell(ping, 'Answer')).toHaveText('204');
  await expect(cell(ping, 'Attempts')).toHaveText('2');
  await expect(cell(row, 'Failures in a row')).toHaveText('0');
  expect(at(path)).toHaveLength(2);

  await row.getByRole('button', { name: `Delete ${url}` }).click();
  await page
    .getByRole('dialog', { name: 'Delete webhook' })
    .getByRole('button', { name: 'Delete webhook' })
    .click();
  await expect(row).toHaveCount(0);
});
