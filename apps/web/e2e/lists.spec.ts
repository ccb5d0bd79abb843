import { expect, type Page, test } from '@playwright/test';
import { ADMIN } from '../playwright.config';
import { apiCall, apiLogin, uniqueSuffix } from './api';
import { signIn, signOut } from './steps';

/**
 * The users, artists and playlists lists as views one can keep and share (search, role, tab,
 * sort, page and page size in the address, through a reload and Back), their sortable columns,
 * and owners' names on playlists: one `users.profiles` call for a page of playlists, and a
 * listener sees another listener's name on a public playlist. The records are made through the
 * API with names of their own; the database holds other specs' records too, so the users and
 * artists are narrowed by a search for this file's suffix, and the playlists are a fresh
 * listener's own (or the newest public ones).
 */
const suffix = uniqueSuffix();
const USER_PREFIX = `Lists User ${suffix}`;
const ARTIST_PREFIX = `Lists Artist ${suffix}`;
const PLAYLIST_PREFIX = `Lists Playlist ${suffix}`;
/** Twelve names made in this order, which is not theirs by name. */
const WORDS = [
  'Kilo',
  'Echo',
  'Alpha',
  'Hotel',
  'Charlie',
  'Lima',
  'Bravo',
  'India',
  'Foxtrot',
  'Delta',
  'Juliet',
  'Golf',
];
/** The users made with the role `artist` (the rest are listeners). */
const ARTIST_ROLE = new Set(['Alpha', 'Hotel', 'Lima']);
/** The playlists the owner makes public (the rest are private). */
const PUBLIC = new Set(['Echo', 'Bravo']);
const OWNER = {
  username: `Lists Owner ${suffix}`,
  email: `lists-owner-${suffix}@e2e.test`,
  password: 'lists-password-1',
};
const VIEWER = {
  username: `Lists Viewer ${suffix}`,
  email: `lists-viewer-${suffix}@e2e.test`,
  password: 'lists-password-2',
};
const USERS_SEARCH = 'Search users by name or email';
const ARTISTS_SEARCH = 'Search artists by name';

/** Names in the order they were made, and in their order by name. */
const made = (prefix: string) => WORDS.map((word) => `${prefix} ${word}`);
// One prefix, then words with distinct capitals: code-point order is the database's order too.
const byName = (names: string[]) => [...names].sort();

const playlistIds = new Map<string, string>();

test.beforeAll(async () => {
  const admin = await apiLogin(ADMIN);
  // One at a time: the order they are made in is the order of `createdAt`.
  for (const word of WORDS) {
    await apiCall('POST', '/users', admin, {
      username: `${USER_PREFIX} ${word}`,
      email: `lists-user-${suffix}-${word.toLowerCase()}@e2e.test`,
      password: 'lists-password-0',
      role: ARTIST_ROLE.has(word) ? 'artist' : 'user',
    });
  }
  for (const word of WORDS) await apiCall('POST', '/artists', admin, { name: `${ARTIST_PREFIX} ${word}` });
  await apiCall('POST', '/users', null, OWNER);
  await apiCall('POST', '/users', null, VIEWER);
  const owner = await apiLogin(OWNER);
  for (const word of WORDS) {
    const name = `${PLAYLIST_PREFIX} ${word}`;
    const playlist = await apiCall<{ id: string }>('POST', '/playlists', owner, {
      name,
      isPublic: PUBLIC.has(word),
    });
    playlistIds.set(name, playlist.id);
  }
});

/** The address's query now. */
const query = (page: Page) => new URL(page.url()).searchParams;
const nameCells = (page: Page) => page.locator('main tbody td[data-label="Name"]');
const rows = (page: Page) => page.locator('main table tbody tr');
const header = (page: Page, name: string) => page.getByRole('columnheader', { name, exact: true });
const sortButton = (page: Page, name: string) => page.getByRole('button', { name, exact: true });

async function searchFor(page: Page, label: string, term: string) {
  await page.getByLabel(label).fill(term);
  await expect.poll(() => query(page).get('search')).toBe(term);
}

test('users: search, sort, page and page size are in the address, through a reload and Back', async ({
  page,
}) => {
  const users = made(USER_PREFIX);
  await signIn(page, ADMIN);
  await page.goto('/users');
  await searchFor(page, USERS_SEARCH, USER_PREFIX);
  await expect(header(page, 'Joined')).toHaveAttribute('aria-sort', 'ascending'); // oldest first
  await expect(nameCells(page)).toHaveText(users);

  await sortButton(page, 'Name').click();
  await expect.poll(() => query(page).get('sort')).toBe('username');
  await expect(nameCells(page)).toHaveText(byName(users));
  await page.getByLabel('Rows per page').selectOption('10');
  await expect.poll(() => query(page).get('limit')).toBe('10');
  await expect(page.getByText('Page 1 of 2 · 12 items')).toBeVisible();
  await page.getByRole('button', { name: 'Next →' }).click();
  await expect.poll(() => query(page).get('page')).toBe('2');
  const lastTwo = byName(users).slice(10);
  await expect(nameCells(page)).toHaveText(lastTwo);
  expect(Object.fromEntries(query(page))).toEqual({
    search: USER_PREFIX,
    sort: 'username',
    page: '2',
    limit: '10',
  });

  await page.reload();
  await expect(page.getByLabel(USERS_SEARCH)).toHaveValue(USER_PREFIX);
  await expect(header(page, 'Name')).toHaveAttribute('aria-sort', 'ascending');
  await expect(page.getByLabel('Rows per page')).toHaveValue('10');
  await expect(page.getByText('Page 2 of 2 · 12 items')).toBeVisible();
  await expect(nameCells(page)).toHaveText(lastTwo);

  // Back steps through pages, sizes and sorts, not through what was typed.
  await page.goBack();
  await expect(page.getByText('Page 1 of 2 · 12 items')).toBeVisible();
  await expect(nameCells(page)).toHaveText(byName(users).slice(0, 10));
  await page.goBack();
  await expect(page.getByLabel('Rows per page')).toHaveValue('20');
  await expect(rows(page)).toHaveCount(12);
  await page.goBack();
  await expect(header(page, 'Joined')).toHaveAttribute('aria-sort', 'ascending');
  await expect(header(page, 'Name')).not.toHaveAttribute('aria-sort');
  await expect(nameCells(page)).toHaveText(users);
  await expect.poll(() => Object.fromEntries(query(page))).toEqual({ search: USER_PREFIX });
});

test('users: the role filter is in the address, through a reload and Back', async ({ page }) => {
  const users = made(USER_PREFIX);
  const artists = users.filter((_, i) => ARTIST_ROLE.has(WORDS[i]!));
  await signIn(page, ADMIN);
  await page.goto('/users');
  await searchFor(page, USERS_SEARCH, USER_PREFIX);
  await expect(rows(page)).toHaveCount(12);
  const role = page.getByLabel('Role', { exact: true });
  await role.selectOption({ label: 'Artist' });
  await expect.poll(() => query(page).get('role')).toBe('artist');
  await expect(nameCells(page)).toHaveText(artists);

  await page.reload();
  await expect(role).toHaveValue('artist');
  await expect(page.getByLabel(USERS_SEARCH)).toHaveValue(USER_PREFIX);
  await expect(nameCells(page)).toHaveText(artists);

  await page.goBack();
  await expect(role).toHaveValue('');
  await expect(nameCells(page)).toHaveText(users);
  await expect.poll(() => Object.fromEntries(query(page))).toEqual({ search: USER_PREFIX });
});

test('users: a column header sorts the list, ascending then descending, and says so', async ({ page }) => {
  const users = made(USER_PREFIX);
  await signIn(page, ADMIN);
  await page.goto('/users');
  await searchFor(page, USERS_SEARCH, USER_PREFIX);
  await expect(nameCells(page)).toHaveText(users);
  // Only the fields the API sorts by are buttons.
  await expect(header(page, 'Role').getByRole('button')).toHaveCount(0);

  await sortButton(page, 'Name').click();
  await expect(header(page, 'Name')).toHaveAttribute('aria-sort', 'ascending');
  await expect(header(page, 'Joined')).not.toHaveAttribute('aria-sort');
  await expect(nameCells(page)).toHaveText(byName(users));

  await sortButton(page, 'Name').click();
  await expect(header(page, 'Name')).toHaveAttribute('aria-sort', 'descending');
  await expect(nameCells(page)).toHaveText(byName(users).reverse());
  await expect.poll(() => query(page).get('sort')).toBe('-username');

  await sortButton(page, 'Joined').click();
  await expect(header(page, 'Joined')).toHaveAttribute('aria-sort', 'ascending');
  await expect(nameCells(page)).toHaveText(users);
  await expect.poll(() => query(page).get('sort')).toBeNull(); // the default order: a plain address
});

test('artists: search, sort, page and page size are in the address, through a reload and Back', async ({
  page,
}) => {
  const artists = made(ARTIST_PREFIX);
  const descending = byName(artists).reverse();
  await signIn(page, ADMIN);
  await page.goto('/artists');
  await searchFor(page, ARTISTS_SEARCH, ARTIST_PREFIX);
  await expect(header(page, 'Name')).toHaveAttribute('aria-sort', 'ascending'); // by name, the default
  await expect(nameCells(page)).toHaveText(byName(artists));

  // A click turns the order around.
  await sortButton(page, 'Name').click();
  await expect.poll(() => query(page).get('sort')).toBe('-name');
  await expect(header(page, 'Name')).toHaveAttribute('aria-sort', 'descending');
  await expect(nameCells(page)).toHaveText(descending);
  await page.getByLabel('Rows per page').selectOption('10');
  await expect.poll(() => query(page).get('limit')).toBe('10');
  await page.getByRole('button', { name: 'Next →' }).click();
  await expect.poll(() => query(page).get('page')).toBe('2');
  await expect(nameCells(page)).toHaveText(descending.slice(10));
  expect(Object.fromEntries(query(page))).toEqual({
    search: ARTIST_PREFIX,
    sort: '-name',
    page: '2',
    limit: '10',
  });

  await page.reload();
  await expect(page.getByLabel(ARTISTS_SEARCH)).toHaveValue(ARTIST_PREFIX);
  await expect(header(page, 'Name')).toHaveAttribute('aria-sort', 'descending');
  await expect(page.getByLabel('Rows per page')).toHaveValue('10');
  await expect(page.getByText('Page 2 of 2 · 12 items')).toBeVisible();
  await expect(nameCells(page)).toHaveText(descending.slice(10));

  await page.goBack();
  await expect(nameCells(page)).toHaveText(descending.slice(0, 10));
  await page.goBack();
  await expect(rows(page)).toHaveCount(12);
  await page.goBack();
  await expect(header(page, 'Name')).toHaveAttribute('aria-sort', 'ascending');
  await expect(nameCells(page)).toHaveText(byName(artists));
  await expect.poll(() => Object.fromEntries(query(page))).toEqual({ search: ARTIST_PREFIX });
});

test('playlists: the tab, sort, page and page size are in the address, through a reload and Back', async ({
  page,
}) => {
  const playlists = made(PLAYLIST_PREFIX);
  const mine = page.getByRole('button', { name: 'My playlists' });
  const everyones = page.getByRole('button', { name: 'Public playlists' });
  await signIn(page, OWNER);
  // A listener has no "All playlists": the address cannot ask for it.
  await page.goto('/playlists?tab=all');
  await expect(mine).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('button', { name: 'All playlists' })).toHaveCount(0);
  await page.goto('/playlists');
  await expect(mine).toHaveAttribute('aria-pressed', 'true');
  await expect(nameCells(page)).toHaveText(playlists); // oldest first, the default
  await expect(header(page, 'Name')).not.toHaveAttribute('aria-sort');

  await sortButton(page, 'Name').click();
  await expect.poll(() => query(page).get('sort')).toBe('name');
  await expect(header(page, 'Name')).toHaveAttribute('aria-sort', 'ascending');
  await expect(nameCells(page)).toHaveText(byName(playlists));
  await page.getByLabel('Rows per page').selectOption('10');
  await expect.poll(() => query(page).get('limit')).toBe('10');
  await page.getByRole('button', { name: 'Next →' }).click();
  await expect.poll(() => query(page).get('page')).toBe('2');
  await expect(nameCells(page)).toHaveText(byName(playlists).slice(10));
  expect(Object.fromEntries(query(page))).toEqual({ sort: 'name', page: '2', limit: '10' });

  await page.reload();
  await expect(mine).toHaveAttribute('aria-pressed', 'true');
  await expect(header(page, 'Name')).toHaveAttribute('aria-sort', 'ascending');
  await expect(page.getByLabel('Rows per page')).toHaveValue('10');
  await expect(nameCells(page)).toHaveText(byName(playlists).slice(10));

  // A tab is a step of its own, from its first page.
  await everyones.click();
  await expect.poll(() => query(page).get('tab')).toBe('public');
  expect(Object.fromEntries(query(page))).toEqual({ tab: 'public', sort: 'name', limit: '10' });
  await expect(everyones).toHaveAttribute('aria-pressed', 'true');
  await expect(page.locator('main tbody td[data-label="Owner"]').first()).toBeAttached();
  await page.reload();
  await expect(everyones).toHaveAttribute('aria-pressed', 'true');
  await expect(mine).toHaveAttribute('aria-pressed', 'false');

  await page.goBack();
  await expect(mine).toHaveAttribute('aria-pressed', 'true');
  await expect(nameCells(page)).toHaveText(byName(playlists).slice(10));
  await page.goBack();
  await expect(nameCells(page)).toHaveText(byName(playlists).slice(0, 10));
  await page.goBack();
  await expect(rows(page)).toHaveCount(12);
  await page.goBack();
  await expect(header(page, 'Name')).not.toHaveAttribute('aria-sort');
  await expect(nameCells(page)).toHaveText(playlists);
  await expect.poll(() => Object.fromEntries(query(page))).toEqual({});
});

test('a listener sees another listener’s name on a public playlist, in one call for the page', async ({
  page,
}) => {
  const shared = `${PLAYLIST_PREFIX} Echo`;
  /** The /api/trpc calls that look owners up. */
  const lookups: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname === '/api/trpc/users.profiles' || pathname === '/api/trpc/users.get') {
      lookups.push(pathname.slice('/api/trpc/'.length));
    }
  });
  await signIn(page, VIEWER);
  lookups.length = 0;
  // Newest first: this file's public playlists are on the first page.
  await page.goto('/playlists?tab=public&sort=-createdAt');
  await expect(page.getByRole('button', { name: 'Public playlists' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  const row = rows(page).filter({ hasText: shared });
  await expect(row.locator('td[data-label="Owner"]')).toHaveText(OWNER.username);
  await expect(page.locator('main tbody td[data-label="Owner"]', { hasText: '…' })).toHaveCount(0);
  await page.waitForLoadState('networkidle');
  // Every owner on the page in one users.profiles call, and none by users.get.
  expect(lookups).toEqual(['users.profiles']);

  await row.getByRole('link', { name: shared, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: shared })).toBeVisible();
  await expect(page.getByText(`by ${OWNER.username}`)).toBeVisible();

  // The owner sees "You" on their own.
  await signOut(page);
  await signIn(page, OWNER);
  await page.goto('/playlists?tab=public&sort=-createdAt');
  await expect(rows(page).filter({ hasText: shared }).locator('td[data-label="Owner"]')).toHaveText('You');
  await page.goto(`/playlists/${playlistIds.get(shared)}`);
  await expect(page.getByText('by You')).toBeVisible();
});
