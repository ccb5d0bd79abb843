import { expect, test } from '@playwright/test';
import { ADMIN } from '../playwright.config';
import { apiCall, apiLogin, uniqueSuffix } from './api';
import { signIn } from './steps';

/**
 * Two editors of one song (contract 8.2): the console opens the song's edit form, someone else
 * changes the title through the API meanwhile, and the console's save is refused (If-Match) with
 * a notice that says what changed and offers to save over it or to take their version.
 */
const suffix = uniqueSuffix();

interface Song {
  id: string;
  title: string;
}

let token: string;
test.beforeAll(async () => {
  token = await apiLogin(ADMIN);
});

test('a song changed meanwhile: the notice says what changed; save mine, or reload theirs', async ({
  page,
}) => {
  const original = `Conflict ${suffix} original`;
  const song = await apiCall<Song>('POST', '/songs', token, { title: original, duration: 200 });

  await signIn(page, ADMIN);
  await page.goto(`/songs/${song.id}`);
  await expect(page.getByRole('heading', { level: 1, name: original })).toBeVisible();
  const form = page.getByRole('region', { name: 'Edit' });
  const title = form.getByLabel('Title');
  await expect(title).toHaveValue(original);

  // Someone else renames it while the form is open.
  const theirs = `Conflict ${suffix} theirs`;
  await apiCall('PATCH', `/songs/${song.id}`, token, { title: theirs });

  const mine = `Conflict ${suffix} mine`;
  await title.fill(mine);
  await form.getByRole('button', { name: 'Save song' }).click();
  const notice = form
    .getByRole('alert')
    .filter({ hasText: 'Someone changed this song while you were editing.' });
  await expect(notice).toBeVisible();
  const titleChange = notice.getByRole('listitem').filter({ hasText: 'Title' });
  await expect(titleChange).toContainText(original);
  await expect(titleChange).toContainText(theirs);
  // Only the title changed.
  await expect(notice.getByRole('listitem')).toHaveCount(1);
  // What was typed is kept.
  await expect(title).toHaveValue(mine);

  await notice.getByRole('button', { name: 'Save mine anyway' }).click();
  await expect(page.getByRole('heading', { level: 1, name: mine })).toBeVisible();
  await expect(form.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  await expect(form.getByRole('alert')).toHaveCount(0);
  expect((await apiCall<Song>('GET', `/songs/${song.id}`, token)).title).toBe(mine);

  // Again, and this time take their version.
  const theirsAgain = `Conflict ${suffix} theirs again`;
  await apiCall('PATCH', `/songs/${song.id}`, token, { title: theirsAgain });
  await form.getByLabel('Title').fill(`Conflict ${suffix} mine again`);
  await form.getByRole('button', { name: 'Save song' }).click();
  const again = form
    .getByRole('alert')
    .filter({ hasText: 'Someone changed this song while you were editing.' });
  const change = again.getByRole('listitem').filter({ hasText: 'Title' });
  await expect(change).toContainText(mine);
  await expect(change).toContainText(theirsAgain);

  await again.getByRole('button', { name: 'Reload their version' }).click();
  await expect(form.getByRole('alert')).toHaveCount(0);
  await expect(form.getByLabel('Title')).toHaveValue(theirsAgain);
  await expect(page.getByRole('heading', { level: 1, name: theirsAgain })).toBeVisible();
  expect((await apiCall<Song>('GET', `/songs/${song.id}`, token)).title).toBe(theirsAgain);

  await apiCall('DELETE', `/songs/${song.id}`, token);
});
