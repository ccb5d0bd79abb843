import { expect, type Page, test } from '@playwright/test';
import { ADMIN } from '../playwright.config';
import { uniqueSuffix } from './api';
import { createArtist, followHeaderLink, signIn } from './steps';

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
  await createArtist(page, name);
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

test('the users dialogs confirm in a toast and ask before unsaved edits are lost', async ({ page }) => {
  const name = `Toast User ${suffix}`;
  const email = `toast-user-${suffix}@e2e.test`;
  await page.goto('/users');
  await page.getByRole('button', { name: 'New user' }).click();
  const create = page.getByRole('dialog', { name: 'New user' });
  await create.getByLabel('Name').fill(name);
  // Typed into, the new-user dialog asks before Escape closes it.
  await page.keyboard.press('Escape');
  await expect(create.getByText('Discard your changes?')).toBeVisible();
  await create.getByRole('button', { name: 'Keep editing' }).click();
  await create.getByLabel('Email').fill(email);
  await create.getByLabel('Password').fill('toast-password-1');
  await create.getByRole('button', { name: 'Create user' }).click();
  await expect(create).toBeHidden();
  await expect(toast(page, `Created “${name}”.`)).toBeVisible();

  // Found by a search: other specs' users may fill the first page.
  await page.getByLabel('Search users by name or email').fill(email);
  await page.getByRole('button', { name: `Edit ${name}` }).click();
  const edit = page.getByRole('dialog', { name: `Edit ${name}` });
  // Untouched, it closes at once.
  await page.keyboard.press('Escape');
  await expect(edit).toBeHidden();
  await page.getByRole('button', { name: `Edit ${name}` }).click();
  await edit.getByLabel('Role').selectOption({ label: 'Artist' });
  await page.keyboard.press('Escape');
  await expect(edit.getByText('Discard your changes?')).toBeVisible();
  await edit.getByRole('button', { name: 'Keep editing' }).click();
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(edit).toBeHidden();
  await expect(toast(page, `Saved “${name}”.`)).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: email })).toContainText('Artist');
});

test('a link out of a page with unsaved edits asks first; staying keeps them', async ({ page }) => {
  const name = `Leaving Band ${suffix}`;
  await createArtist(page, name);

  const asked: string[] = [];
  // The first question is answered "stay", the next ones "leave".
  page.on('dialog', (question) => {
    asked.push(question.message());
    void (asked.length === 1 ? question.dismiss() : question.accept());
  });
  const bio = page.getByLabel('Biography');
  await bio.fill('Half a sentence');
  await followHeaderLink(page, 'Songs');
  await expect.poll(() => asked.length).toBe(1);
  expect(asked[0]).toContain('Discard your changes?');
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(bio).toHaveValue('Half a sentence');

  await followHeaderLink(page, 'Songs');
  await expect(page).toHaveURL(/\/songs$/);
  expect(asked).toHaveLength(2);
  // Nothing typed on this page: the menu leaves without asking.
  await followHeaderLink(page, 'Artists');
  await expect(page).toHaveURL(/\/artists$/);
  expect(asked).toHaveLength(2);
});
