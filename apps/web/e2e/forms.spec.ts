import { expect, type Locator, type Page, test } from '@playwright/test';
import { ADMIN } from '../playwright.config';
import { apiCall, apiLogin, uniqueSuffix } from './api';
import { signIn } from './steps';

/**
 * The record forms as a person meets them (issue: raw messages such as "Too small: expected
 * string to have >=1 characters", required fields unmarked, no length limits on the inputs,
 * errors only on submit and the focus left behind). The New song, New artist and New playlist
 * dialogs: required fields marked with "*" (hidden from screen readers, which hear `required`)
 * and one note per form, refusals in words, the focus on the first field in error, the schemas'
 * bounds said and never applied (a year of "99999" is not quietly cut to "9999": no `maxLength`,
 * a counter of what is over, a refusal in words), and a field checked as it is left. The suite's other files share this
 * database: the two records made here have names of their own, and no account is added.
 */

const SUFFIX = uniqueSuffix();
const NOTE = 'Fields marked * are required.';
// zod's own wording, which people were shown before.
const RAW = /Too small|Too big|expected|received|>=|<=|Invalid input/;

async function openDialog(page: Page, path: string, name: string): Promise<Locator> {
  await page.goto(path);
  await page.getByRole('button', { name }).click();
  const dialog = page.getByRole('dialog', { name });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** A control marked required: "*" beside its label, out of its accessible name; `required`. */
async function expectRequired(dialog: Locator, label: string) {
  const control = dialog.getByLabel(label);
  await expect(control, label).toHaveAttribute('required', '');
  await expect(control, label).toHaveAttribute('aria-required', 'true');
  await expect(control, label).toHaveAccessibleName(label);
  const text = dialog.locator('label', { hasText: new RegExp(`^${label}`) });
  await expect(text, label).toHaveText(`${label} *`);
  await expect(text.locator('[aria-hidden="true"]'), label).toHaveText('*');
}

async function expectOptional(dialog: Locator, label: string) {
  const control = dialog.getByLabel(label);
  await expect(control, label).not.toHaveAttribute('required');
  await expect(control, label).not.toHaveAttribute('aria-required');
  await expect(dialog.locator('label', { hasText: new RegExp(`^${label}`) }), label).toHaveText(label);
}

/**
 * Types past a control's bound (`fill` up to two short of it, then keys): nothing is cut, and the
 * counter below it, which describes it, says how many characters are over.
 */
async function typePast(control: Locator, bound: number) {
  await expect(control).not.toHaveAttribute('maxlength');
  await control.fill('x'.repeat(bound - 2));
  await control.pressSequentially('abcde');
  await expect(control).toHaveValue(`${'x'.repeat(bound - 2)}abcde`);
  await expect(control).toHaveAccessibleDescription(/3 characters too many/);
}

/** The form's field errors: exactly `messages`, in order, none of them in zod's words. */
async function expectErrors(dialog: Locator, messages: string[]) {
  const errors = dialog.locator('.field-error');
  await expect(errors).toHaveText(messages);
  for (const text of await errors.allTextContents()) expect(text).not.toMatch(RAW);
}

test.beforeEach(async ({ page }) => {
  await signIn(page, ADMIN);
});

test('New song: required fields marked, bounds said and not applied, refusals in words with the focus on them', async ({
  page,
}) => {
  const dialog = await openDialog(page, '/songs', 'New song');
  await expect(dialog.getByText(NOTE, { exact: true })).toHaveCount(1);
  await expectRequired(dialog, 'Title');
  await expectRequired(dialog, 'Length');
  for (const label of ['Album', 'Genre', 'Release year']) await expectOptional(dialog, label);

  // Submitted empty: each refusal in words beside its field, the focus on the first of them.
  const create = dialog.getByRole('button', { name: 'Create song' });
  await create.click();
  await expectErrors(dialog, ['Enter a title', 'Enter the length, such as 3:25']);
  const title = dialog.getByLabel('Title');
  await expect(title).toBeFocused();
  await expect(title).toHaveAttribute('aria-invalid', 'true');
  await expect(title).toHaveAccessibleDescription(/Enter a title/);
  // A field in error is checked again as it changes: its message goes as soon as it is right.
  await title.fill(`Forms Song ${SUFFIX}`);
  await expectErrors(dialog, ['Enter the length, such as 3:25']);
  await create.click();
  await expect(dialog.getByLabel('Length')).toBeFocused();

  // The schema's bounds are said, not applied: what is typed stays as typed, and is refused.
  await expect(dialog.getByLabel('Album')).not.toHaveAttribute('maxlength');
  await typePast(title, 200);
  await typePast(dialog.getByLabel('Genre'), 50);
  const year = dialog.getByLabel('Release year');
  await expect(year).not.toHaveAttribute('maxlength');
  await year.pressSequentially('99999');
  await expect(year).toHaveValue('99999');
  await create.click();
  await expectErrors(dialog, [
    'At most 200 characters',
    'At most 50 characters',
    'Enter the length, such as 3:25',
    'Must be a whole number between 1000 and 9999',
  ]);
  await expect(title).toBeFocused();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.getByRole('button', { name: 'Discard' }).click();
  await expect(dialog).toBeHidden();
});

test('New song: a field typed in is checked when it is left, before any submit', async ({ page }) => {
  const dialog = await openDialog(page, '/songs', 'New song');
  // A field only passed through says nothing yet.
  await page.keyboard.press('Tab');
  await expect(dialog.locator('.field-error')).toHaveCount(0);

  const title = dialog.getByLabel('Title');
  await title.fill('Draft');
  await title.fill('');
  await title.press('Tab');
  await expectErrors(dialog, ['Enter a title']);
  await expect(title).toHaveAttribute('aria-invalid', 'true');

  const year = dialog.getByLabel('Release year');
  await year.fill('99');
  await year.press('Tab');
  await expectErrors(dialog, ['Enter a title', 'Must be a whole number between 1000 and 9999']);
  await year.fill('1999');
  await expectErrors(dialog, ['Enter a title']);

  // The length is read as the console reads it, in its own words.
  const length = dialog.getByLabel('Length');
  await length.fill('3:75');
  await length.press('Tab');
  await expectErrors(dialog, ['Enter a title', 'Seconds must be 0-59']);
  await expect(dialog).toBeVisible(); // nothing was submitted
});

test('New artist: the name marked and bounded, the biography counted, refusals in words', async ({
  page,
}) => {
  const dialog = await openDialog(page, '/artists', 'New artist');
  await expect(dialog.getByText(NOTE, { exact: true })).toHaveCount(1);
  await expectRequired(dialog, 'Name');
  await expectOptional(dialog, 'Biography');
  await expectOptional(dialog, 'Managed by account');

  await dialog.getByRole('button', { name: 'Create artist' }).click();
  await expectErrors(dialog, ['Enter a name']);
  const name = dialog.getByLabel('Name');
  await expect(name).toBeFocused();
  await expect(name).toHaveAccessibleDescription(/Enter a name/);

  // Left empty after typing: the message comes when the field is left.
  await name.fill('Draft');
  await expectErrors(dialog, []);
  await name.fill('');
  await name.press('Tab');
  await expectErrors(dialog, ['Enter a name']);
  await expect(dialog.getByLabel('Biography')).toBeFocused();

  await typePast(name, 200);
  const bio = dialog.getByLabel('Biography');
  await expect(bio).toHaveAccessibleDescription(/2000 characters left/);
  await bio.fill('Plays for the form tests.');
  await expect(dialog.getByText('1975 characters left', { exact: true })).toBeVisible();
  await typePast(bio, 2000);
  await dialog.getByRole('button', { name: 'Create artist' }).click();
  await expectErrors(dialog, ['At most 200 characters', 'At most 2000 characters']);
  await expect(dialog).toBeVisible();

  // What the bounds let through is saved.
  const band = `Forms Band ${SUFFIX}`;
  await name.fill(band);
  await bio.fill('Plays for the form tests.');
  await dialog.getByRole('button', { name: 'Create artist' }).click();
  await expect(page.getByRole('heading', { level: 1, name: band })).toBeVisible();
});

test('New playlist: the name marked and bounded, the description counted, refusals in words', async ({
  page,
}) => {
  const dialog = await openDialog(page, '/playlists', 'New playlist');
  await expect(dialog.getByText(NOTE, { exact: true })).toHaveCount(1);
  await expectRequired(dialog, 'Name');
  await expectOptional(dialog, 'Description');

  await dialog.getByRole('button', { name: 'Create playlist' }).click();
  await expectErrors(dialog, ['Enter a name']);
  const name = dialog.getByLabel('Name');
  await expect(name).toBeFocused();

  // Whitespace is no name (the schema trims it): the message stays while the field is in error.
  await name.fill('   ');
  await expectErrors(dialog, ['Enter a name']);
  await name.fill('Mix');
  await expectErrors(dialog, []);
  await name.fill('');
  await name.press('Tab');
  await expectErrors(dialog, ['Enter a name']);

  await typePast(name, 100);
  const description = dialog.getByLabel('Description');
  await expect(description).toHaveAccessibleDescription(/1000 characters left/);
  await typePast(description, 1000);
  await dialog.getByRole('button', { name: 'Create playlist' }).click();
  await expectErrors(dialog, ['At most 100 characters', 'At most 1000 characters']);

  const mix = `Forms Mix ${SUFFIX}`;
  await name.fill(mix);
  await description.fill('');
  await dialog.getByRole('button', { name: 'Create playlist' }).click();
  await expect(page.getByRole('heading', { level: 1, name: mix })).toBeVisible();
});

test('New song: the genres in use are suggested, and one typed in another case is saved in the catalogue’s spelling', async ({
  page,
}) => {
  const admin = await apiLogin(ADMIN);
  const genre = `Forms Genre ${SUFFIX}`;
  const made = await Promise.all(
    [1, 2].map((n) =>
      apiCall<{ id: string }>('POST', '/songs', admin, {
        title: `Forms Genred ${SUFFIX} ${n}`,
        genre,
        duration: 90,
      }),
    ),
  );
  const dialog = await openDialog(page, '/songs', 'New song');
  const title = `Forms Spelled ${SUFFIX}`;
  await dialog.getByLabel('Title').fill(title);
  await dialog.getByLabel('Length').fill('2:00');
  const field = dialog.getByLabel('Genre');
  await field.fill(genre.toLowerCase());
  // The genre in use is suggested, in its own spelling, with its songs.
  const listId = await field.getAttribute('list');
  const option = dialog.locator(`datalist[id="${listId}"] option[value="${genre}"]`);
  await expect(option).toHaveCount(1);
  await expect(option).toHaveAttribute('label', `${genre} (2 songs)`);
  await dialog.getByRole('button', { name: 'Create song' }).click();
  await expect(dialog).toBeHidden();

  const found = await apiCall<{ data: Array<{ id: string; genre: string | null }> }>(
    'GET',
    `/songs?search=${encodeURIComponent(title)}`,
    admin,
  );
  expect(found.data.map((song) => song.genre)).toEqual([genre]);
  await Promise.all([...made, found.data[0]!].map((song) => apiCall('DELETE', `/songs/${song.id}`, admin)));
});
