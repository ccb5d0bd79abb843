import { expect, type Page, test } from '@playwright/test';
import { ADMIN } from '../playwright.config';
import { signIn } from './steps';

/**
 * Where the keyboard focus goes (issue: it fell to <body> after a dialog closed and after a
 * failed sign-in, so a keyboard user started over from the top of the page).
 */

/** The focused element, described: its tag and accessible text. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement;
    return element ? `${element.tagName.toLowerCase()}:${element.textContent?.trim() ?? ''}` : 'none';
  });

test('a failed sign-in keeps the focus on the form', async ({ page }) => {
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByLabel('Password').fill('not-the-password');
  // By the button: it is busy while the API answers, and keeps the focus through it.
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.locator('.notice-error')).toHaveText('The email or the password is not right.');
  expect(await focused(page)).toBe('button:Sign in');
  // By Enter in a field: the focus stays in the field.
  await page.getByLabel('Password').press('Enter');
  await expect(page.locator('.notice-error')).toBeVisible();
  await expect(page.getByLabel('Password')).toBeFocused();
});

test('closing a dialog, by Escape, Cancel or after confirming, puts the focus back on its opener', async ({
  page,
}) => {
  await signIn(page, ADMIN);
  await page.goto('/artists');
  const opener = page.getByRole('button', { name: 'New artist' });
  await opener.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'New artist' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Name')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();

  await page.keyboard.press('Enter');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();

  // A new artist, then its delete confirmation cancelled: back on the Delete button.
  await page.keyboard.press('Enter');
  const name = `Focus ${Math.random().toString(36).slice(2, 8)}`;
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('button', { name: 'Create artist' }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  const remove = page.getByRole('button', { name: 'Delete artist' });
  await remove.focus();
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('dialog', { name: 'Delete artist' });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect(remove).toBeFocused();
});
