import { readFile } from 'node:fs/promises';
import { type Download, expect, type Locator, type Page, test } from '@playwright/test';
import { ADMIN } from '../playwright.config';
import { apiCall, apiLogin, uniqueSuffix } from './api';
import { seriousViolations } from './axe';
import { cell, signIn } from './steps';

/**
 * Songs in files: an admin checks a CSV file (a dry run: what it would create, its bad record by
 * line), imports it, saves the error report, finds the songs in the list, and exports the whole
 * catalogue as CSV and NDJSON, also after the access cookie has lapsed (the download readies the
 * session first). A listener exports but is not offered the import, and the API refuses their
 * upload through the console's route. Each test's records have names of their own.
 */

const HEADER = 'title,album,genre,duration,releaseYear,isrc,externalId,artists';

/** What a download saved, as text. */
async function saved(download: Download): Promise<string> {
  return readFile(await download.path(), 'utf8');
}

/** Clicks `target` and answers the download it starts. */
async function downloadOf(page: Page, target: Locator): Promise<Download> {
  const started = page.waitForEvent('download');
  await target.click();
  return started;
}

/** A count of a run (its `dt` and `dd`), by its name. */
const count = (run: Locator, label: string) =>
  run.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('+ dd');

test('an admin checks a CSV file, imports it, saves the error report, finds the songs and exports them', async ({
  page,
  context,
}) => {
  const id = uniqueSuffix();
  const band = `Bulk Band ${id}`;
  const first = `Bulk ${id} First Light`;
  // A comma in a title: the export quotes it.
  const second = `Bulk ${id} Second, Wind`;
  const csv = [
    HEADER,
    `${first},Bulk Album ${id},Indie,200,2024,,bulk-${id}-1,${band}`,
    `"${second}",,Indie,185,2023,,bulk-${id}-2,${band}`,
    `Bulk ${id} Broken,,,-5,,,bulk-${id}-3,${band}`,
  ].join('\r\n');

  await signIn(page, ADMIN);
  await page.goto('/songs');
  await page.getByRole('link', { name: 'Import songs' }).click();
  await expect(page).toHaveURL(/\/songs\/import$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Import songs' })).toBeVisible();
  const importButton = page.getByRole('button', { name: 'Import', exact: true });
  await expect(importButton).toBeDisabled();

  await page
    .getByLabel('File')
    .setInputFiles({ name: `bulk-${id}.csv`, mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.getByRole('button', { name: 'Check the file' }).click();
  const check = page.getByRole('region', { name: 'Check', exact: true });
  await expect(check.getByRole('status')).toHaveText(
    'Checked: 2 to create, 0 to update, 0 unchanged, 1 failed.',
  );
  await expect(count(check, 'Records read')).toHaveText('3');
  await expect(count(check, 'Would create')).toHaveText('2');
  await expect(count(check, 'Failed')).toHaveText('1');
  // The bad record, by its line in the file (the header is line 1).
  const checkErrors = check.getByRole('table', { name: 'Errors by line of the file' }).locator('tbody tr');
  await expect(checkErrors).toHaveCount(1);
  await expect(cell(checkErrors, 'Line')).toHaveText(/4/);
  await expect(cell(checkErrors, 'Field')).toHaveText(/duration/);
  expect(await seriousViolations(page)).toEqual([]);
  // A dry run writes nothing.
  const admin = await apiLogin(ADMIN);
  const found = await apiCall<{ data: Array<{ title: string }> }>(
    'GET',
    `/songs?search=${encodeURIComponent(first)}`,
    admin,
  );
  expect(found.data.filter((song) => song.title === first)).toEqual([]);

  await expect(importButton).toBeEnabled();
  await importButton.click();
  const run = page.getByRole('region', { name: 'Import', exact: true });
  await expect(run.getByRole('status')).toHaveText('Imported: 2 created, 0 updated, 0 unchanged, 1 failed.');
  await expect(count(run, 'Created')).toHaveText('2');
  await expect(run.getByRole('progressbar')).toHaveCount(0);
  // The import's errors are listed once, the check's give way to them.
  await expect(check.getByRole('table')).toHaveCount(0);
  await expect(cell(run.locator('tbody tr'), 'Line')).toHaveText(/4/);
  await expect(importButton).toBeDisabled();

  const report = await downloadOf(page, run.getByRole('button', { name: 'Download the error report' }));
  expect(report.suggestedFilename()).toMatch(/^import-errors-\d{4}-\d{2}-\d{2}\.csv$/);
  const reportLines = (await saved(report)).split('\r\n');
  expect(reportLines[0]).toBe('line,field,message');
  expect(reportLines[1]).toMatch(/^4,duration,.+/);
  expect(reportLines.slice(2)).toEqual(['']);

  // The new songs, in the list (read again: it was read before the import).
  await page.getByRole('link', { name: 'See the songs, newest added first' }).click();
  await expect(page).toHaveURL(/\/songs\?sort=-createdAt$/);
  await page.getByLabel('Search songs by title, album or artist').fill(`Bulk ${id}`);
  const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: first, exact: true }) });
  await expect(cell(row, 'Artists')).toHaveText(band);
  await expect(cell(row, 'Length')).toHaveText('3:20');
  await expect(page.getByRole('link', { name: second, exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: `Bulk ${id} Broken` })).toHaveCount(0);

  // The whole catalogue, as CSV: the header row, and the songs as the import read them.
  const exported = await downloadOf(page, page.getByRole('link', { name: 'Export CSV' }));
  expect(exported.suggestedFilename()).toMatch(/^songs-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = await saved(exported);
  expect(text.startsWith(`${HEADER}\r\n`)).toBe(true);
  expect(text).toContain(`\r\n${first},Bulk Album ${id},Indie,200,2024,,bulk-${id}-1,${band}\r\n`);
  expect(text).toContain(`\r\n"${second}",,Indie,185,2023,,bulk-${id}-2,${band}\r\n`);

  // As NDJSON, after the access cookie has lapsed: the session is refreshed, then the file saved.
  await context.clearCookies({ name: 'mc_access' });
  const ndjson = await downloadOf(page, page.getByRole('link', { name: 'Export NDJSON' }));
  expect(ndjson.suggestedFilename()).toMatch(/^songs-\d{4}-\d{2}-\d{2}\.ndjson$/);
  const songs = (await saved(ndjson))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { title: string; artists: string[]; externalId: string | null });
  expect(songs.find((song) => song.title === first)).toMatchObject({
    artists: [band],
    externalId: `bulk-${id}-1`,
  });
});

test('a listener exports the catalogue but is not offered the import, and the API refuses their file', async ({
  page,
  baseURL,
}) => {
  const id = uniqueSuffix();
  const who = { email: `bulk-${id}@e2e.test`, password: `bulk-pass-${id}` };
  await apiCall('POST', '/users', null, { username: `Bulk Listener ${id}`, ...who });
  await signIn(page, who);
  await page.goto('/songs');
  await expect(page.getByRole('link', { name: 'Export CSV' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Export NDJSON' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Import songs' })).toHaveCount(0);
  const exported = await downloadOf(page, page.getByRole('link', { name: 'Export CSV' }));
  expect((await saved(exported)).startsWith(`${HEADER}\r\n`)).toBe(true);

  // The page itself, reached by its address, says who imports.
  await page.goto('/songs/import');
  await expect(page.getByRole('main').getByRole('alert')).toHaveText(
    /Only admins and artist accounts import songs/,
  );
  await expect(page.getByLabel('File')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Check the file' })).toHaveCount(0);

  // The console's route passes the API's refusal on, with the listener's own session.
  const refused = await page.request.post('/api/imports?dryRun=true', {
    headers: { 'content-type': 'text/csv', origin: baseURL! },
    data: `${HEADER}\r\nBulk ${id} Refused,,,100,,,,\r\n`,
  });
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toMatchObject({ code: 'FORBIDDEN' });
});

test('an import under way shows how far it is: by records read while checking, then against the check’s count', async ({
  page,
}) => {
  // The API's answers stood in for, a step at a time: a real file of four records is read in a
  // moment, too soon to see its progress.
  const at = (changes: object, counts: object) => ({
    id: '01a22291-0000-7000-8000-000000000001',
    status: 'running',
    dryRun: true,
    format: 'csv',
    counts: { read: 0, created: 0, updated: 0, unchanged: 0, failed: 0, ...counts },
    errors: [],
    failure: null,
    createdAt: '2026-11-28T12:00:00.000Z',
    startedAt: null,
    finishedAt: null,
    ...changes,
  });
  let shown = at({ status: 'queued' }, {});
  await page.route(
    (url) => url.pathname === '/api/imports',
    (route) => route.fulfill({ status: 202, json: shown }),
  );
  await page.route(
    (url) => url.pathname === '/api/trpc/imports.get',
    (route) => route.fulfill({ json: { result: { data: shown } } }),
  );
  await signIn(page, ADMIN);
  await page.goto('/songs/import');
  await page.getByLabel('File').setInputFiles({
    name: 'four.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`${HEADER}\r\nA,,,60,,,,\r\nB,,,60,,,,\r\nC,,,60,,,,\r\nD,,,60,,,,\r\n`),
  });
  await page.getByRole('button', { name: 'Check the file' }).click();
  const check = page.getByRole('region', { name: 'Check', exact: true });
  await expect(check.getByRole('status')).toHaveText('The check is waiting to start…');

  // The check does not know how many records there are: an indeterminate bar, and the count so far.
  shown = at({}, { read: 1, created: 1 });
  const checking = check.getByRole('progressbar');
  await expect(checking).toHaveAccessibleName('Check 1 record read so far');
  await expect(checking).toHaveJSProperty('position', -1);
  await expect(count(check, 'Would create')).toHaveText('1');
  await expect(page.getByRole('button', { name: 'Import', exact: true })).toBeDisabled();

  shown = at({ status: 'succeeded' }, { read: 4, created: 4 });
  await expect(check.getByRole('status')).toHaveText(
    'Checked: 4 to create, 0 to update, 0 unchanged, 0 failed.',
  );
  await expect(checking).toHaveCount(0);

  // The import: measured against the four records the check read.
  shown = at({ id: '01a22291-0000-7000-8000-000000000002', dryRun: false, status: 'queued' }, {});
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  const run = page.getByRole('region', { name: 'Import', exact: true });
  await expect(run.getByRole('status')).toHaveText('The import is waiting to start…');
  shown = at({ id: '01a22291-0000-7000-8000-000000000002', dryRun: false }, { read: 2, created: 2 });
  const importing = run.getByRole('progressbar');
  await expect(importing).toHaveAccessibleName('Import 2 of 4 records read');
  await expect(importing).toHaveJSProperty('value', 2);
  await expect(importing).toHaveJSProperty('max', 4);
  await expect(run.getByRole('status')).toHaveText('Importing…');
  shown = at(
    { id: '01a22291-0000-7000-8000-000000000002', dryRun: false, status: 'succeeded' },
    { read: 4, created: 4 },
  );
  await expect(run.getByRole('status')).toHaveText('Imported: 4 created, 0 updated, 0 unchanged, 0 failed.');
  await expect(importing).toHaveCount(0);
});
