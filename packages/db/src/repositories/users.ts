import { sql } from 'kysely';
import type { Db, NewUser, Role, UserRow, UserUpdate } from '../schema';
import { type Keyset, keysetPage, keysetSelections, type OrderKey, orderTerms, pageAfter } from './order';
import { foldOptional, matchesTerm, type SearchTerm } from './search-terms';

/**
 * Every column read is named: a column added while instances run (a rolling deploy) must not
 * change what an older instance's statements return.
 */
export const USER_COLUMNS = [
  'users.id',
  'users.username',
  'users.email',
  'users.password_hash',
  'users.role',
  'users.created_at',
  'users.updated_at',
] as const;

export async function insertUser(db: Db, user: NewUser): Promise<UserRow> {
  return db.insertInto('users').values(user).returning(USER_COLUMNS).executeTakeFirstOrThrow();
}

export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').select(USER_COLUMNS).where('id', '=', id).executeTakeFirst();
}

/** `email` must already be normalised (see the users service). */
export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').select(USER_COLUMNS).where('email', '=', email).executeTakeFirst();
}

/** The columns a list of users can be ordered by (the API's `sort` fields). */
export type UserSortColumn = 'username' | 'email' | 'created_at';

/** Today's order, kept as the default: oldest first. */
const OLDEST_FIRST: readonly OrderKey<UserSortColumn>[] = [{ column: 'created_at', descending: false }];

export interface ListUsersArgs {
  role?: Role | undefined;
  /** Folded words of the term each in the username or each in the email (`search-terms.ts`). */
  search?: string | undefined;
  /** Only these users (one `= any(array)` on the primary key, however many). */
  ids?: readonly string[] | undefined;
  /** Then by id; empty or omitted: oldest first. */
  sort?: readonly OrderKey<UserSortColumn>[] | undefined;
  limit: number;
  offset: number;
}

/** One page of users, ordered by `sort` (default `created_at`), then `id`, with the matching total. */
function filteredUsers(db: Db, args: Omit<ListUsersArgs, 'limit' | 'offset'>, term: SearchTerm | undefined) {
  let query = db.selectFrom('users');
  if (args.role) query = query.where('role', '=', args.role);
  if (term) {
    // Folded on the fly: a scan of the accounts, which only admins list.
    query = query.where((eb) =>
      eb.or([
        matchesTerm(sql`search_compact(users.username)`, term, [sql.ref('users.username')]),
        matchesTerm(sql`search_compact(users.email)`, term, [sql.ref('users.email')]),
      ]),
    );
  }
  if (args.ids) query = query.where('users.id', '=', sql<string>`any(${[...args.ids]}::uuid[])`);
  return query;
}

export async function listUsers(db: Db, args: ListUsersArgs): Promise<{ rows: UserRow[]; total: number }> {
  const query = filteredUsers(db, args, await foldOptional(db, args.search));
  let ordered = query.select(USER_COLUMNS);
  for (const [term, direction] of orderTerms('users', args.sort, OLDEST_FIRST)) {
    ordered = ordered.orderBy(term, direction);
  }
  const [rows, count] = await Promise.all([
    ordered.limit(args.limit).offset(args.offset).execute(),
    query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

/** The users after a position in the list's order (cursor mode), and the position after them. */
export async function listUsersAfter(
  db: Db,
  args: Omit<ListUsersArgs, 'offset'> & { after: Keyset | null },
): Promise<{ rows: UserRow[]; next: Keyset | null }> {
  const rows = await filteredUsers(db, args, await foldOptional(db, args.search))
    .select(USER_COLUMNS)
    .select(keysetSelections('users', args.sort, OLDEST_FIRST))
    .$call(pageAfter('users', args.sort, OLDEST_FIRST, args))
    .execute();
  const { rows: kept, next } = keysetPage(rows, args.limit, args.sort?.length || OLDEST_FIRST.length);
  const strip = ({ id, username, email, password_hash, role, created_at, updated_at }: UserRow): UserRow => ({
    id,
    username,
    email,
    password_hash,
    role,
    created_at,
    updated_at,
  });
  return { rows: kept.map(strip), next };
}

/** What a profile shows of a user: nothing else is read. */
export type ProfileRow = Pick<UserRow, 'id' | 'username'>;

export interface ListProfilesArgs {
  /**
   * Whose profiles may be listed: this user's own and those of users who own at least one
   * public playlist; `null` lifts the restriction (every user). Required, so no caller gets
   * every user by leaving it out.
   */
  visibleTo: string | null;
  /** Only these users (one `= any(array)` on the primary key, however many). */
  ids?: readonly string[] | undefined;
  /** Folded words of the term each in the username (`search-terms.ts`). */
  search?: string | undefined;
  limit: number;
  offset: number;
}

/** One page of profiles (id and username), ordered by username, then id, with the matching total. */
function visibleProfiles(
  db: Db,
  args: Omit<ListProfilesArgs, 'limit' | 'offset'>,
  term: SearchTerm | undefined,
) {
  let query = db.selectFrom('users');
  const { visibleTo } = args;
  if (visibleTo !== null) {
    query = query.where((eb) =>
      eb.or([
        eb('users.id', '=', visibleTo),
        eb.exists(
          eb
            .selectFrom('playlists')
            .select(sql.lit(1).as('one'))
            .whereRef('playlists.user_id', '=', 'users.id')
            .where('playlists.is_public', '=', true),
        ),
      ]),
    );
  }
  // One array parameter, as listArtists: the statement stays the same for any count.
  if (args.ids) query = query.where('users.id', '=', sql<string>`any(${[...args.ids]}::uuid[])`);
  if (term) {
    query = query.where(matchesTerm(sql`search_compact(users.username)`, term, [sql.ref('users.username')]));
  }
  return query;
}

export async function listProfiles(
  db: Db,
  args: ListProfilesArgs,
): Promise<{ rows: ProfileRow[]; total: number }> {
  const query = visibleProfiles(db, args, await foldOptional(db, args.search));
  const [rows, count] = await Promise.all([
    query
      .select(['users.id', 'users.username'])
      .orderBy('users.username')
      .orderBy('users.id')
      .limit(args.limit)
      .offset(args.offset)
      .execute(),
    query.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.total };
}

const BY_USERNAME: readonly OrderKey<'username'>[] = [{ column: 'username', descending: false }];

/** The profiles after a position in username order (cursor mode), and the position after them. */
export async function listProfilesAfter(
  db: Db,
  args: Omit<ListProfilesArgs, 'offset'> & { after: Keyset | null },
): Promise<{ rows: ProfileRow[]; next: Keyset | null }> {
  const rows = await visibleProfiles(db, args, await foldOptional(db, args.search))
    .select(['users.id', 'users.username'])
    .select(keysetSelections('users', undefined, BY_USERNAME))
    .$call(pageAfter('users', undefined, BY_USERNAME, args))
    .execute();
  const { rows: kept, next } = keysetPage(rows, args.limit, 1);
  return { rows: kept.map(({ id, username }) => ({ id, username })), next };
}

/**
 * Locks every admin's row for the rest of the transaction (`db` must be one) and returns their
 * ids: the guard of "there is always an admin". Every change that could remove an admin takes
 * this lock before it locks its own row, so two admins demoting or deleting each other queue
 * instead of both seeing the other as the remaining admin. Rows are locked in id order (no
 * deadlock between two callers); a row demoted or deleted meanwhile drops out when PostgreSQL
 * re-checks it after the wait, so the ids returned are admins that stay admins until commit.
 * `no key update` is enough to exclude other writers while letting inserts that merely
 * reference an admin (their sessions, playlists) go on.
 */
export async function lockAdmins(db: Db): Promise<string[]> {
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where('role', '=', 'admin')
    .orderBy('id')
    .forNoKeyUpdate()
    .execute();
  return rows.map((row) => row.id);
}

/** Locks one user's row for the rest of the transaction (`db` must be one); undefined when missing. */
export async function lockUser(db: Db, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').select(USER_COLUMNS).where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function updateUser(db: Db, id: string, patch: UserUpdate): Promise<UserRow | undefined> {
  return db
    .updateTable('users')
    .set({ ...patch, updated_at: new Date() })
    .where('id', '=', id)
    .returning(USER_COLUMNS)
    .executeTakeFirst();
}

/** Deletes the user; their sessions and playlists go with them (foreign keys cascade). */
export async function deleteUser(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom('users').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}
