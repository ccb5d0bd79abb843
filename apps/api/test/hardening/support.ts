import { randomBytes } from 'node:crypto';
import { type Operation, operationAt, operations, type RouteMeta } from '@music/api-router';
import { createTokenService, generateApiKeyToken } from '@music/auth';
import {
  apiKeys,
  type Db,
  imports,
  insertArtist,
  insertPlaylist,
  insertSong,
  setPlaylistSongs,
  setSongArtists,
  uuidv7,
  webhookDeliveries,
  webhooks,
} from '@music/db';
import { songRow } from '@music/db/testing';
import { sql } from 'kysely';
import type { Env } from '../../src/runtime/env';
import { TOKEN_AUDIENCE, TOKEN_ISSUER } from '../../src/server';
import {
  type Client,
  createClient,
  type Response,
  startTestApi,
  TEST_SECRET,
  type TestApi,
} from '../support/harness';

/** Shared helpers of the hardening suites: both transports, signed actors, data fingerprints. */

export type Transport = 'v1' | 'trpc';

/** The procedure at a dotted path, with its `/v1` route (every procedure has one; the matrix checks). */
export function procedureAt(path: string): Operation & { route: RouteMeta } {
  const operation = operationAt(path);
  if (!operation?.route) throw new Error(`${path} is not a procedure served on /v1`);
  return { ...operation, route: operation.route };
}

/** Every procedure's dotted path. */
export const procedurePaths = operations.map((o) => o.path);

export interface TrpcClient extends Client {
  /** Calls a procedure the way the console's client does: queries by GET, mutations by POST. */
  // biome-ignore lint/suspicious/noExplicitAny: bodies are read loosely; assertions check their shape.
  call<T = any>(path: string, input?: unknown, token?: string): Promise<Response<T>>;
}

/** The `/trpc` side of a server whose `/v1` client is given. */
export function trpcOf(v1: Client): TrpcClient {
  const client = createClient(v1.url.replace(/\/v1$/, '/trpc'));
  return {
    ...client,
    call(path, input, token) {
      const kind = operationAt(path)?.kind;
      if (kind === 'query') {
        const query = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
        return client.request('GET', `/${path}${query}`, { token });
      }
      return client.request('POST', `/${path}`, { token, body: input ?? {} });
    },
  };
}

/** The contract code of an answer on either transport (`undefined` on success). */
export function codeOf(res: Response): string | undefined {
  const body = res.body as { code?: string; error?: { data?: { code?: string } } } | undefined;
  if (res.status < 400) return undefined;
  return body?.error?.data?.code ?? body?.code;
}

/** The error part of an answer, asserted to be in the transport's error shape. */
export function errorShapeOk(transport: Transport, res: Response): boolean {
  const body = res.body as Record<string, unknown>;
  if (typeof body !== 'object' || body === null) return false;
  if (transport === 'v1') return typeof body.code === 'string' && typeof body.message === 'string';
  const error = body.error as { message?: unknown; data?: { code?: unknown; httpStatus?: unknown } };
  return (
    typeof error?.message === 'string' &&
    typeof error.data?.code === 'string' &&
    error.data.httpStatus === res.status
  );
}

/** The token service of this suite's servers: `createActor(db, role, tokens)` signs with it. */
export const tokens = createTokenService({
  secret: TEST_SECRET,
  issuer: TOKEN_ISSUER,
  audience: TOKEN_AUDIENCE,
});

/** Direct fixtures (no HTTP, through the repositories): an artist, a song linked to artists, a playlist. */
export async function insertArtistRow(db: Db, userId: string | null = null): Promise<string> {
  const id = uuidv7();
  await insertArtist(db, { id, name: `Artist ${id.slice(-8)}`, bio: null, user_id: userId });
  return id;
}

export async function insertSongRow(db: Db, artistIds: string[] = []): Promise<string> {
  const { id } = await insertSong(db, songRow('Song', { duration: 180 }));
  if (artistIds.length > 0) await setSongArtists(db, id, artistIds);
  return id;
}

export async function insertPlaylistRow(
  db: Db,
  ownerId: string,
  options: { isPublic?: boolean; songIds?: string[] } = {},
): Promise<string> {
  const id = uuidv7();
  const name = `Playlist ${id.slice(-8)}`;
  await insertPlaylist(db, {
    id,
    user_id: ownerId,
    name,
    description: null,
    is_public: options.isPublic ?? false,
  });
  if (options.songIds?.length) await setPlaylistSongs(db, id, options.songIds);
  return id;
}

/**
 * A digest of every row a client could change (users, catalogue, playlists, sessions): equal
 * digests before and after a refused request mean it changed nothing.
 */
export async function fingerprint(db: Db): Promise<string> {
  const tables = ['users', 'sessions', 'artists', 'songs', 'song_artists', 'playlists', 'playlist_songs'];
  // An order-independent digest (a sum of row hashes): no sort, one pass over each table.
  const parts = tables.map(
    (table) =>
      sql<string>`(select count(*) || ':' || coalesce(sum(('x' || left(md5(t::text), 15))::bit(60)::bigint), 0) from ${sql.table(table)} t)`,
  );
  const { rows } = await sql<{ digest: string }>`select concat_ws('/', ${sql.join(parts)}) as digest`.execute(
    db,
  );
  return rows[0]!.digest;
}

const WATCHED = [
  'users',
  'sessions',
  'refresh_tokens',
  'password_resets',
  'artists',
  'songs',
  'song_artists',
  'playlists',
  'playlist_songs',
];

/**
 * Counts every row written (inserted, updated, deleted) in the tables a client can change,
 * transactionally (a rolled-back write does not count). Test databases only: the counter row
 * serialises writers. `writeCount` before and after a refused request must be equal.
 */
async function watchWrites(db: Db): Promise<void> {
  await sql`create table if not exists hardening_writes (n bigint not null)`.execute(db);
  await sql`insert into hardening_writes (n) select 0 where not exists (select 1 from hardening_writes)`.execute(
    db,
  );
  await sql`
    create or replace function hardening_count_write() returns trigger language plpgsql as $$
    begin
      update hardening_writes set n = n + 1;
      return null;
    end $$`.execute(db);
  // API keys count as they are made and deleted, not as their use is recorded (in batches).
  await sql`drop trigger if exists api_keys_hardening_writes on api_keys`.execute(db);
  await sql`create trigger api_keys_hardening_writes after insert or delete
    on api_keys for each row execute function hardening_count_write()`.execute(db);
  // Webhooks and deliveries count as their owners change them, not as deliveries are attempted
  // (in the background): a webhook's failures and a delivery's attempts are the worker's.
  await sql`drop trigger if exists webhooks_hardening_writes on webhooks`.execute(db);
  await sql`create trigger webhooks_hardening_writes after insert or delete or update of url, events, description
    on webhooks for each row execute function hardening_count_write()`.execute(db);
  await sql`drop trigger if exists webhooks_enabled_hardening_writes on webhooks`.execute(db);
  await sql`create trigger webhooks_enabled_hardening_writes after update of enabled on webhooks for each row
    when (old.failures = new.failures) execute function hardening_count_write()`.execute(db);
  await sql`drop trigger if exists deliveries_hardening_writes on webhook_deliveries`.execute(db);
  // An import is made by its request (its run, in the background, changes it afterwards).
  await sql`drop trigger if exists imports_hardening_writes on imports`.execute(db);
  await sql`create trigger imports_hardening_writes after insert on imports
    for each row execute function hardening_count_write()`.execute(db);
  // The dispatcher's deliveries are background writes: a request makes only test pings.
  await sql`create trigger deliveries_hardening_writes after insert on webhook_deliveries
    for each row when (new.event_type = 'webhook.ping') execute function hardening_count_write()`.execute(db);
  await sql`drop trigger if exists deliveries_resent_hardening_writes on webhook_deliveries`.execute(db);
  await sql`create trigger deliveries_resent_hardening_writes after update on webhook_deliveries for each row
    when (old.attempts = new.attempts and old.status <> 'pending' and new.status = 'pending')
    execute function hardening_count_write()`.execute(db);
  for (const table of WATCHED) {
    await sql`drop trigger if exists ${sql.ref(`${table}_hardening_writes`)} on ${sql.table(table)}`.execute(
      db,
    );
    await sql`create trigger ${sql.ref(`${table}_hardening_writes`)} after insert or update or delete
      on ${sql.table(table)} for each row execute function hardening_count_write()`.execute(db);
  }
}

/** A test API whose writes are counted from the start (`writeCount`), with its /trpc client. */
export async function startWatchedApi(
  overrides: Partial<Env> = {},
): Promise<{ api: TestApi; trpc: TrpcClient }> {
  // Webhooks may point at loopback (DEAD_HOOK_URL): no test reaches beyond this machine.
  const api = await startTestApi({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true', ...overrides });
  await watchWrites(api.database.db);
  return { api, trpc: trpcOf(api) };
}

export async function writeCount(db: Db): Promise<number> {
  const { rows } = await sql<{ n: string }>`select n from hardening_writes`.execute(db);
  return Number(rows[0]!.n);
}

/** A UUID that names nothing. */
export function missingId(): string {
  return uuidv7();
}

export function randomTag(): string {
  return randomBytes(4).toString('hex');
}

/** Raw HTTP/1.1 on a socket: for requests fetch refuses to send (bad UTF-8 paths, slow clients). */
export { rawRequest } from './raw';

/** A key of `userId`'s with these scopes, straight in the database; returns its id and token. */
export async function insertApiKeyRow(
  db: Db,
  userId: string,
  scopes: readonly string[],
): Promise<{ id: string; token: string }> {
  const made = generateApiKeyToken();
  const id = uuidv7();
  await apiKeys.insertApiKey(db, {
    id,
    userId,
    name: `Key ${id.slice(-8)}`,
    scopes,
    prefix: made.prefix,
    tokenHash: made.hash,
    expiresAt: null,
  });
  return { id, token: made.token };
}

/** A finished import of `userId`'s, straight in the database; returns its id. */
export async function insertImportRow(db: Db, userId: string): Promise<string> {
  const id = uuidv7();
  await imports.insertImport(db, {
    id,
    userId,
    apiKeyId: null,
    requestId: 'matrix',
    address: '127.0.0.1',
    format: 'csv',
    dryRun: true,
  });
  await imports.finishImport(db, id, 'succeeded', null);
  return id;
}

/** A loopback URL nothing listens on (the discard port): deliveries to it fail at once. */
export const DEAD_HOOK_URL = 'http://127.0.0.1:9/hook';

/** A webhook of `userId`'s (song events to DEAD_HOOK_URL) and one failed delivery of it, straight in the database. */
export async function insertWebhookRow(db: Db, userId: string): Promise<{ id: string; deliveryId: string }> {
  const hook = await webhooks.insertWebhook(db, {
    id: uuidv7(),
    userId,
    url: DEAD_HOOK_URL,
    events: ['song.*'],
    description: null,
    secret: `whsec_${Buffer.alloc(24, 1).toString('base64')}`,
  });
  const [deliveryId] = await webhookDeliveries.insertDeliveries(db, [
    { id: uuidv7(), webhookId: hook.id, eventId: uuidv7(), eventType: 'song.created', payload: '{}' },
  ]);
  await db
    .updateTable('webhook_deliveries')
    .set({ status: 'failed', attempts: 1 })
    .where('id', '=', deliveryId!)
    .execute();
  return { id: hook.id, deliveryId: deliveryId! };
}
