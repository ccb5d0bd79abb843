import type { Db, NewUser, Role, UserRow, UserUpdate } from '../schema';

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

export async function listUsers(
  db: Db,
  args: { role?: Role | undefined; limit: number; offset: number },
): Promise<{ rows: UserRow[]; total: number }> {
  let query = db.selectFrom('users');
  if (args.role) query = query.where('role', '=', args.role);
  const [rows, count] = await Promise.all([
    query
      .select(USER_COLUMNS)
      .orderBy('created_at')
      .orderBy('id')
      .limit(args.limit)
      .offset(args.offset)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
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
