import { sql } from 'kysely';
import type { ApiKeyRow, Db } from '../schema';
import { statement } from '../sql';
import { type Keyset, keysetPage, keysetSelections, type OrderKey, pageAfter } from './order';
import type { SessionUser } from './sessions';

/** What listings and reads show of a key: everything but its hash. */
export type ApiKeyRecord = Omit<ApiKeyRow, 'token_hash'>;

const RECORD_COLUMNS = [
  'id',
  'user_id',
  'name',
  'scopes',
  'prefix',
  'created_at',
  'expires_at',
  'last_used_at',
] as const;

export async function insertApiKey(
  db: Db,
  key: {
    id: string;
    userId: string;
    name: string;
    scopes: readonly string[];
    prefix: string;
    tokenHash: string;
    expiresAt: Date | null;
  },
): Promise<ApiKeyRecord> {
  return db
    .insertInto('api_keys')
    .values({
      id: key.id,
      user_id: key.userId,
      name: key.name,
      scopes: [...key.scopes],
      prefix: key.prefix,
      token_hash: key.tokenHash,
      expires_at: key.expiresAt,
    })
    .returning(RECORD_COLUMNS)
    .executeTakeFirstOrThrow();
}

export async function findApiKey(db: Db, id: string): Promise<ApiKeyRecord | undefined> {
  return db.selectFrom('api_keys').select(RECORD_COLUMNS).where('id', '=', id).executeTakeFirst();
}

/** One page of a user's keys, oldest first, and how many they have. */
export async function listApiKeys(
  db: Db,
  args: { userId: string; limit: number; offset: number },
): Promise<{ rows: ApiKeyRecord[]; total: number }> {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('api_keys')
      .select(RECORD_COLUMNS)
      .where('user_id', '=', args.userId)
      .orderBy('created_at')
      .orderBy('id')
      .limit(args.limit)
      .offset(args.offset)
      .execute(),
    countApiKeys(db, args.userId),
  ]);
  return { rows, total: count };
}

export async function countApiKeys(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<string>().as('total'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

const OLDEST_FIRST: readonly OrderKey<'created_at'>[] = [{ column: 'created_at', descending: false }];

/** A user's keys after a position in their order, oldest first (cursor mode), and the position after them. */
export async function listApiKeysAfter(
  db: Db,
  args: { userId: string; limit: number; after: Keyset | null },
): Promise<{ rows: ApiKeyRecord[]; next: Keyset | null }> {
  const rows = await db
    .selectFrom('api_keys')
    .select(RECORD_COLUMNS)
    .select(keysetSelections('api_keys', undefined, OLDEST_FIRST))
    .where('user_id', '=', args.userId)
    .$call(pageAfter('api_keys', undefined, OLDEST_FIRST, args))
    .execute();
  const { rows: kept, next } = keysetPage(rows, args.limit, 1);
  return {
    rows: kept.map(({ id, user_id, name, scopes, prefix, created_at, expires_at, last_used_at }) => ({
      id,
      user_id,
      name,
      scopes,
      prefix,
      created_at,
      expires_at,
      last_used_at,
    })),
    next,
  };
}

/** Deletes a key; false when there was none. */
export async function deleteApiKey(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom('api_keys').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** What a request's key check needs: the key's hash and scopes, and its owner as a session check reads them. */
export interface KeyOwner {
  keyId: string;
  tokenHash: string;
  scopes: string[];
  user: SessionUser;
}

/**
 * The live (unexpired) key with this prefix and its owner, read fresh on every request like a
 * session: a deleted key, a deleted owner or a changed role takes effect on the next request, on
 * every instance. One indexed read, as the session check is.
 */
const keyOwnerStatement = statement((db, p: { prefix: string }) =>
  db
    .selectFrom('api_keys as k')
    .innerJoin('users as u', 'u.id', 'k.user_id')
    .select([
      'k.id as key_id',
      'k.token_hash',
      'k.scopes',
      'u.id',
      'u.username',
      'u.email',
      'u.role',
      'u.created_at',
      'u.updated_at',
    ])
    .where('k.prefix', '=', p.prefix)
    .where((eb) => eb.or([eb('k.expires_at', 'is', null), eb('k.expires_at', '>', sql<Date>`now()`)])),
);

export async function findKeyOwner(db: Db, prefix: string): Promise<KeyOwner | undefined> {
  const { rows } = await keyOwnerStatement.run(db, { prefix });
  const row = rows[0];
  if (!row) return undefined;
  const { key_id, token_hash, scopes, ...user } = row;
  return { keyId: key_id, tokenHash: token_hash, scopes, user };
}

/**
 * Records when keys were last used, many at once (each key's latest time; never moves a time
 * back, so instances reporting out of order agree).
 */
export async function recordKeyUse(db: Db, uses: ReadonlyMap<string, Date>): Promise<void> {
  if (uses.size === 0) return;
  const ids = [...uses.keys()];
  const times = ids.map((id) => uses.get(id)!.toISOString());
  await sql`
    update api_keys as k set last_used_at = greatest(k.last_used_at, u.at)
    from unnest(${ids}::uuid[], ${times}::timestamptz[]) as u(id, at)
    where k.id = u.id`.execute(db);
}
