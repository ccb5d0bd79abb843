import { expect, test } from '@playwright/test';
import { ADMIN } from '../playwright.config';
import { seriousViolations } from './axe';
import { signIn } from './steps';

/**
 * Keyboard shortcuts: `/` the header search, `n` the page's "New …", `?` the list of them (a
 * dialog that names this page's "New …"). A key typed in a field is text, not a shortcut, and
 * a dialog keeps its keys. Single-key shortcuts can be turned off (WCAG 2.1.4), from the list or
 * the account page, and stay off in this browser.
 */
test('/, n and ? do what the list says, and not while typing', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto('/songs');
  await expect(page.getByRole('heading', { level: 1, name: 'Songs' })).toBeVisible();

  await page.keyboard.press('n');
  const newSong = page.getByRole('dialog', { name: 'New song' });
  await expect(newSong).toBeVisible();
  // In a dialog a key is the dialog's: typed, not a shortcut.
  await newSong.getByLabel('Title').press('n');
  await expect(newSong.getByLabel('Title')).toHaveValue('n');
  await page.keyboard.press('Escape');
  await page.getByRole('dialog').getByRole('button', { name: 'Discard' }).click();
  await expect(newSong).toBeHidden();

  await page.keyboard.press('/');
  const search = page.getByRole('combobox', { name: 'Search the catalogue' });
  await expect(search).toBeFocused();
  await page.keyboard.type('n?');
  await expect(search).toHaveValue('n?');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await search.fill('');
  await page.getByRole('heading', { level: 1, name: 'Songs' }).click();

  await page.keyboard.press('?');
  const list = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(list).toBeVisible();
  await expect(list.getByText('New song (on this page)')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await list.getByRole('button', { name: 'Done' }).click();
  await expect(list).toBeHidden();

  // Another page's "New …".
  await page.goto('/artists');
  await expect(page.getByRole('heading', { level: 1, name: 'Artists' })).toBeVisible();
  await page.keyboard.press('n');
  await expect(page.getByRole('dialog', { name: 'New artist' })).toBeVisible();
});

test('single-key shortcuts can be turned off, and stay off in this browser', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto('/songs');
  await expect(page.getByRole('heading', { level: 1, name: 'Songs' })).toBeVisible();
  await page.keyboard.press('?');
  const list = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  const keys = list.getByLabel(/Single-key shortcuts/);
  await expect(keys).toBeChecked();
  await keys.uncheck();
  await list.getByRole('button', { name: 'Done' }).click();

  await page.keyboard.press('n');
  await page.keyboard.press('/');
  await page.keyboard.press('?');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  // (Folded away on a phone until its button is pressed, and `/` did not reveal it.)
  const search = page.getByRole('combobox', { name: 'Search the catalogue', includeHidden: true });
  await expect(search).not.toBeFocused();
  await expect(search).toHaveAttribute('placeholder', 'Search…');

  // Kept: the account page says so, and turns them on again.
  await page.goto('/account');
  const again = page.getByLabel(/Single-key shortcuts/);
  await expect(again).not.toBeChecked();
  await again.check();
  await page.goto('/songs');
  await expect(page.getByRole('heading', { level: 1, name: 'Songs' })).toBeVisible();
  await page.keyboard.press('n');
  await expect(page.getByRole('dialog', { name: 'New song' })).toBeVisible();
});
