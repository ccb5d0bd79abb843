import { sql } from 'kysely';
import type { Db } from '../schema';
import type { ImportError, ImportRow } from '../schema-integrations';
import { type SongWithArtists, songsWithArtists } from './songs';

/** Imports and the files they were sent, kept in pieces until the import ends. */

/** At most this many errors are kept an import (`failed` counts them all). */
export const KEPT_ERRORS = 1000;

export async function insertImport(
  db: Db,
  row: {
    id: string;
    userId: string;
    apiKeyId: string | null;
    requestId: string;
    address: string;
    format: 'csv' | 'ndjson';
    dryRun: boolean;
  },
): Promise<void> {
  await db
    .insertInto('imports')
    .values({
      id: row.id,
      user_id: row.userId,
      api_key_id: row.apiKeyId,
      request_id: row.requestId,
      address: row.address,
      format: row.format,
      dry_run: row.dryRun,
      status: 'receiving',
    })
    .execute();
}

export async function appendChunk(db: Db, importId: string, n: number, data: Buffer): Promise<void> {
  await db.insertInto('import_chunks').values({ import_id: importId, n, data }).execute();
  await sql`update imports set bytes = bytes + ${data.length} where id = ${importId}`.execute(db);
}

/** The file has been received whole: the import waits for a worker. */
export async function markQueued(db: Db, importId: string): Promise<void> {
  await db.updateTable('imports').set({ status: 'queued' }).where('id', '=', importId).execute();
}

export async function findImport(db: Db, id: string): Promise<ImportRow | undefined> {
  return db.selectFrom('imports').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function deleteImport(db: Db, id: string): Promise<void> {
  await db.deleteFrom('imports').where('id', '=', id).execute();
}

/** Piece `n` of an import's file (from 0), or undefined past the last. */
export async function readChunk(db: Db, importId: string, n: number): Promise<Buffer | undefined> {
  const row = await db
    .selectFrom('import_chunks')
    .select('data')
    .where('import_id', '=', importId)
    .where('n', '=', n)
    .executeTakeFirst();
  return row ? Buffer.from(row.data) : undefined;
}

/** The import runs (again): `running`, its first start kept. */
export async function markRunning(db: Db, importId: string): Promise<void> {
  await sql`update imports set status = 'running', started_at = coalesce(started_at, now())
    where id = ${importId} and status in ('queued', 'running')`.execute(db);
}

export interface Progress {
  /** The last line whose record is now applied. */
  linesDone: number;
  read: number;
  created: number;
  updated: number;
  unchanged: number;
  failed: number;
  errors: readonly ImportError[];
}

/**
 * Locks the import's row for a batch, if it is still running from checkpoint `from`: two runs of
 * one import (a slice that outlived its job) then apply each batch once, one after the other.
 */
export async function claimBatch(db: Db, importId: string, from: number): Promise<boolean> {
  const { rows } = await sql<{ id: string }>`select id from imports
    where id = ${importId} and lines_done = ${from} and status = 'running' for update`.execute(db);
  return rows.length > 0;
}

/**
 * Adds a batch's counts and errors (the first KEPT_ERRORS in all are kept) and moves the
 * checkpoint, in the batch's own transaction; only from the checkpoint the batch started at, so
 * a batch applied twice (a worker that outlived its job) counts once. Returns whether it did.
 */
export async function recordProgress(db: Db, importId: string, from: number, p: Progress): Promise<boolean> {
  const { rows } = await sql<{ id: string }>`
    update imports set lines_done = ${p.linesDone}, read = read + ${p.read},
      created = created + ${p.created}, updated = updated + ${p.updated},
      unchanged = unchanged + ${p.unchanged}, failed = failed + ${p.failed},
      errors = case when jsonb_array_length(errors) >= ${KEPT_ERRORS} then errors
        else (select coalesce(jsonb_agg(e), '[]') from (
          select e from jsonb_array_elements(errors || ${JSON.stringify(p.errors)}::jsonb) with ordinality as x(e, n)
          order by n limit ${KEPT_ERRORS}) kept) end
    where id = ${importId} and lines_done = ${from} and status = 'running'
    returning id`.execute(db);
  return rows.length > 0;
}

/** The import ended: its status, why it failed (if it did); its file is removed. */
export async function finishImport(
  db: Db,
  importId: string,
  status: 'succeeded' | 'failed',
  failure: string | null,
): Promise<void> {
  await db
    .updateTable('imports')
    .set({ status, failure, finished_at: sql<Date>`now()` })
    .where('id', '=', importId)
    .execute();
  await db.deleteFrom('import_chunks').where('import_id', '=', importId).execute();
}

/** The artists with these names (exact), each name with every artist it names. */
export async function artistsNamed(
  db: Db,
  names: readonly string[],
): Promise<Map<string, Array<{ id: string; user_id: string | null }>>> {
  const byName = new Map<string, Array<{ id: string; user_id: string | null }>>();
  if (names.length === 0) return byName;
  const rows = await db
    .selectFrom('artists')
    .select(['id', 'name', 'user_id'])
    .where('name', '=', sql<string>`any(${[...names]}::text[])`)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  for (const row of rows) byName.set(row.name, [...(byName.get(row.name) ?? []), row]);
  return byName;
}

/** The songs with any of these ISRCs or external ids (one statement). */
export async function songsByKeys(
  db: Db,
  isrcs: readonly string[],
  externalIds: readonly string[],
): Promise<SongWithArtists[]> {
  if (isrcs.length === 0 && externalIds.length === 0) return [];
  return songsWithArtists(db)
    .where((eb) =>
      eb.or([
        eb('songs.isrc', '=', sql<string>`any(${[...isrcs]}::text[])`),
        eb('songs.external_id', '=', sql<string>`any(${[...externalIds]}::text[])`),
      ]),
    )
    .execute();
}

/** Savepoints of a transaction, by a fixed name (an import's dry run, and each of its records). */
export const savepoint = {
  set: (trx: Db, name: 'dry_run' | 'record') => sql`savepoint ${sql.id(name)}`.execute(trx),
  rollback: (trx: Db, name: 'dry_run' | 'record') => sql`rollback to savepoint ${sql.id(name)}`.execute(trx),
  release: (trx: Db, name: 'dry_run' | 'record') => sql`release savepoint ${sql.id(name)}`.execute(trx),
};
