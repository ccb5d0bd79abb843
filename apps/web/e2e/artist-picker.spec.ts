import { expect, type Page, test } from '@playwright/test';
import { ADMIN } from '../playwright.config';
import { apiCall, apiLogin, uniqueSuffix } from './api';
import { signIn } from './steps';

/**
 * The artist picker is an ARIA combobox (the APG pattern with a listbox popup): worked from the
 * keyboard alone, the focus staying in the text box while Down and Up move the active option.
 * Its two artists are made through the API, with names of their own.
 */
const SUFFIX = uniqueSuffix();
const TERM = `Picker ${SUFFIX}`;
const NAMES = [`${TERM} Alpha`, `${TERM} Beta`];

test.beforeAll(async () => {
  const admin = await apiLogin(ADMIN);
  for (const name of NAMES) await apiCall('POST', '/artists', admin, { name });
});

async function openNewSong(page: Page) {
  await signIn(page, ADMIN);
  await page.goto('/songs');
  await page.getByRole('button', { name: 'New song' }).click();
  const dialog = page.getByRole('dialog', { name: 'New song' });
  const box = dialog.getByRole('combobox', { name: 'Search artists for Artists' });
  const listbox = dialog.getByRole('listbox', { name: 'Matching artists: Artists' });
  return { dialog, box, listbox, options: listbox.getByRole('option') };
}

test('the artist picker is a combobox: Down and Up move, Enter chooses, Escape closes then clears', async ({
  page,
}) => {
  const { dialog, box, listbox, options } = await openNewSong(page);
  await expect(box).toHaveAttribute('aria-autocomplete', 'list');
  await expect(box).toHaveAttribute('aria-expanded', 'false');
  const listboxId = await box.getAttribute('aria-controls');
  expect(listboxId).toBeTruthy();
  await expect(listbox).toBeHidden();

  // Keyboard only from here (focus() stands for the Tabs from the dialog's first field).
  await box.focus();
  await page.keyboard.type(TERM);
  await expect(box).toHaveAttribute('aria-expanded', 'true');
  await expect(listbox).toBeVisible();
  await expect(listbox).toHaveAttribute('id', listboxId!);
  await expect(options).toHaveCount(2);
  // No automatic selection: nothing is active until an arrow key is pressed.
  await expect(box).not.toHaveAttribute('aria-activedescendant', /./);
  for (const option of await options.all()) {
    expect((await option.boundingBox())!.height).toBeGreaterThanOrEqual(24);
  }

  await page.keyboard.press('ArrowDown');
  const firstId = (await options.nth(0).getAttribute('id'))!;
  await expect(box).toHaveAttribute('aria-activedescendant', firstId);
  await expect(options.nth(0)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ArrowDown');
  const second = options.nth(1);
  const secondId = (await second.getAttribute('id'))!;
  expect(secondId).not.toBe(firstId);
  await expect(box).toHaveAttribute('aria-activedescendant', secondId);
  await expect(second).toHaveAttribute('aria-selected', 'true');
  await expect(options.nth(0)).not.toHaveAttribute('aria-selected', 'true');
  await expect(box).toBeFocused();

  // Both ends wrap: Down from the last goes to the first, Up from the first to the last.
  await page.keyboard.press('ArrowDown');
  await expect(box).toHaveAttribute('aria-activedescendant', firstId);
  await page.keyboard.press('ArrowUp');
  await expect(box).toHaveAttribute('aria-activedescendant', secondId);

  // Enter chooses the active option: it joins the chosen ones, the box empties and closes.
  const name = ((await second.textContent()) ?? '').trim();
  expect(NAMES).toContain(name);
  await page.keyboard.press('Enter');
  await expect(dialog.getByRole('button', { name: `Remove ${name}`, exact: true })).toBeVisible();
  await expect(dialog.getByRole('button', { name: /^Remove / })).toHaveCount(1);
  await expect(box).toHaveValue('');
  await expect(box).toHaveAttribute('aria-expanded', 'false');
  await expect(box).not.toHaveAttribute('aria-activedescendant', /./);
  await expect(box).toBeFocused();
  await expect(dialog).toBeVisible(); // Enter did not submit the form

  // Searched again, the chosen artist is listed but disabled: Enter on it chooses nothing.
  await page.keyboard.type(TERM);
  await expect(options).toHaveCount(2);
  const chosen = listbox.getByRole('option', { name: `${name} (chosen)` });
  await expect(chosen).toHaveAttribute('aria-disabled', 'true');
  const at = (await options.allTextContents()).findIndex((text) => text.includes('(chosen)'));
  for (let i = 0; i <= at; i++) await page.keyboard.press('ArrowDown');
  await expect(box).toHaveAttribute('aria-activedescendant', (await chosen.getAttribute('id'))!);
  await page.keyboard.press('Enter');
  await expect(dialog.getByRole('button', { name: /^Remove / })).toHaveCount(1);
  await expect(box).toHaveAttribute('aria-expanded', 'true');

  // Escape closes the list and keeps the text; a second Escape clears it. The dialog stays open.
  await page.keyboard.press('Escape');
  await expect(box).toHaveAttribute('aria-expanded', 'false');
  await expect(listbox).toBeHidden();
  await expect(box).not.toHaveAttribute('aria-activedescendant', /./);
  await expect(box).toHaveValue(TERM);
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(box).toHaveValue('');
  await expect(dialog).toBeVisible();
  await expect(box).toBeFocused();

  // Tab leaves the box as usual, choosing nothing and closing the list.
  await page.keyboard.type(TERM);
  await expect(box).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('Tab');
  await expect(box).not.toBeFocused();
  await expect(box).toHaveAttribute('aria-expanded', 'false');
  await expect(dialog.getByRole('button', { name: /^Remove / })).toHaveCount(1);
});

test('the artist picker: a click on an option chooses it and keeps the focus in the box', async ({
  page,
}) => {
  const { dialog, box, listbox } = await openNewSong(page);
  await box.fill(TERM);
  await listbox.getByRole('option', { name: NAMES[0], exact: true }).click();
  await expect(dialog.getByRole('button', { name: `Remove ${NAMES[0]}`, exact: true })).toBeVisible();
  await expect(box).toHaveValue('');
  await expect(box).toHaveAttribute('aria-expanded', 'false');
  await expect(box).toBeFocused();
});

test('Create song with a name left in the artist picker: a click is never lost, and the name is refused in words', async ({
  page,
}) => {
  const { dialog, box, listbox } = await openNewSong(page);
  const title = `Picker ${SUFFIX} song`;
  await dialog.getByLabel('Title').fill(title);
  await dialog.getByLabel('Length').fill('3:00');
  const typed = `Nobody ${SUFFIX}`;
  await box.fill(typed);
  await expect(dialog.getByText(`No artist matches “${typed}”.`)).toBeVisible();
  // A real press and release (the text box loses the focus as the button is pressed).
  await dialog.getByRole('button', { name: 'Create song' }).click();
  const refusal = `“${typed}” is not chosen: choose an artist from the list, or clear it`;
  await expect(dialog.getByText(refusal)).toBeVisible();
  await expect(box).toHaveAttribute('aria-invalid', 'true');
  await expect(box).toBeFocused();
  await expect(dialog).toBeVisible();

  // The same with matches listed (a list that went away on the press moved the button most).
  await box.fill(TERM);
  await expect(listbox).toBeVisible();
  await expect(dialog.getByText(refusal)).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Create song' }).click();
  await expect(
    dialog.getByText(`“${TERM}” is not chosen: choose an artist from the list, or clear it`),
  ).toBeVisible();

  // Chosen: the refusal goes, and the song is created with its artist.
  await box.fill(NAMES[1]!);
  await listbox.getByRole('option', { name: NAMES[1]! }).click();
  await expect(dialog.locator('.field-error')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Create song' }).click();
  await expect(dialog).toBeHidden();
  const admin = await apiLogin(ADMIN);
  const found = await apiCall<{ data: Array<{ id: string; title: string; artistIds: string[] }> }>(
    'GET',
    `/songs?search=${encodeURIComponent(title)}`,
    admin,
  );
  expect(found.data.map((song) => song.title)).toEqual([title]);
  expect(found.data[0]!.artistIds).toHaveLength(1);
  await apiCall('DELETE', `/songs/${found.data[0]!.id}`, admin);
});
