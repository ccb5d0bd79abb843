import { expect, type Page, test } from '@playwright/test';
import { ADMIN } from '../playwright.config';
import { uniqueSuffix } from './api';
import { signIn } from './steps';

/**
 * What the console tells after an action, and what it asks before edits are lost: a toast (the
 * one polite live region, role="status") confirms a create and a delete without taking the focus;
 * a dialog form with changes asks "Discard your changes?" before it closes, an untouched one
 * closes at once. Each test makes its own records, with names of their own.
 */
const suffix = uniqueSuffix();

/** The toast that says `text` (other role="status" regions on the page say other things). */
const toast = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text });

test.beforeEach(async ({ page }) => {
  await signIn(page, ADMIN);
});

test('creating and deleting an artist each say so in a toast, which leaves the focus alone', async ({
  page,
}) => {
  const name = `Toast Band ${suffix}`;
  await page.goto('/artists');
  await page.getByRole('button', { name: 'New artist' }).click();
  const dialog = page.getByRole('dialog', { name: 'New artist' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('button', { name: 'Create artist' }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  const created = toast(page, `Created “${name}”.`);
  await expect(created).toBeVisible();
  // Announced, never focused: the focus is not inside the toasts.
  expect(await page.evaluate(() => document.activeElement?.closest('.toasts') ?? null)).toBeNull();
  // Dismissed by its own Close button, before its time is up.
  await created.getByRole('button', { name: 'Close' }).click();
  await expect(created).toBeHidden();

  await page.getByRole('button', { name: 'Delete artist' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete artist' });
  await confirm.getByRole('button', { name: 'Delete artist' }).click();
  await expect(confirm).toBeHidden();
  await expect(page).toHaveURL(/\/artists$/);
  await expect(toast(page, `Deleted “${name}”.`)).toBeVisible();
});

test('a dialog with changes asks before it closes; an untouched one closes at once', async ({ page }) => {
  const name = `Unsaved Mix ${suffix}`;
  await page.goto('/playlists');
  const opener = page.getByRole('button', { name: 'New playlist' });
  const dialog = page.getByRole('dialog', { name: 'New playlist' });
  const question = dialog.getByText('Discard your changes?');
  const keep = dialog.getByRole('button', { name: 'Keep editing' });
  const nameField = dialog.getByLabel('Name');

  // Untouched: Escape closes it straight away, asking nothing.
  await opener.click();
  await expect(nameField).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  await opener.click();
  await nameField.fill(name);
  // Leaving the page would ask through the browser's own prompt.
  expect(await page.evaluate(() => typeof window.onbeforeunload)).toBe('function');

  await page.keyboard.press('Escape');
  await expect(question).toBeVisible();
  await expect(keep).toBeFocused();
  await keep.click();
  await expect(question).toBeHidden();
  await expect(dialog).toBeVisible();
  await expect(nameField).toHaveValue(name);
  await expect(nameField).toBeFocused();

  await page.keyboard.press('Escape');
  await expect(question).toBeVisible();
  await dialog.getByRole('button', { name: 'Discard' }).click();
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
  expect(await page.evaluate(() => window.onbeforeunload)).toBeNull();

  // Opened again, it starts afresh: nothing typed, nothing to ask about.
  await opener.click();
  await expect(nameField).toHaveValue('');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('link', { name })).toHaveCount(0);
});
