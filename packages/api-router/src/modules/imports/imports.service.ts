import { type Db, derivedJobId, imports, type Jobs, uuidv7 } from '@music/db';
import { AppError } from '../../errors';
import { type AuthedContext, isAdmin, loadOr404 } from '../../kernel';
import { type CreateImportInput, type Import, toImport } from './imports.schema';

/** The queue of import runs: each job runs an import for a while, then queues the next slice. */
export const IMPORT_JOBS = 'song-import';

/** The largest file an import takes. */
export const MAX_IMPORT_BYTES = 100 * 1024 * 1024;
/** The file is kept in pieces of about this size. */
const PIECE_BYTES = 1024 * 1024;

/** The media types an import reads, and the format of each. */
const FORMAT_OF_TYPE: Record<string, 'csv' | 'ndjson'> = {
  'text/csv': 'csv',
  'application/x-ndjson': 'ndjson',
  'application/ndjson': 'ndjson',
  'application/jsonl': 'ndjson',
};

/**
 * Queues slice `slice` of an import, in `trx`. Its job id is derived from the import and the
 * slice, so the same slice queued twice is one job.
 */
export function queueSlice(jobs: Jobs, trx: Db, importId: string, slice: number): Promise<void> {
  return jobs.send(trx, IMPORT_JOBS, [
    { id: derivedJobId('import', importId, slice), data: { importId, slice } },
  ]);
}

/**
 * Takes the file as it arrives, into pieces in the database (never whole in memory; any instance
 * can then run the import, also after a restart), and queues its run: 202 with the import.
 * Admins import any song; an artist account the songs of its own artists. Over 100 MB: 413, and
 * nothing is kept.
 */
export async function createImport(ctx: AuthedContext, input: CreateImportInput): Promise<Import> {
  const { user } = ctx.actor;
  if (!isAdmin(ctx.actor) && user.role !== 'artist') {
    throw new AppError('FORBIDDEN', 'Only admins and artist accounts import songs');
  }
  const type = input.file.type.split(';')[0]!.trim().toLowerCase();
  const format = FORMAT_OF_TYPE[type];
  if (!format) {
    throw new AppError(
      'BAD_REQUEST',
      'The body must be a CSV (text/csv) or NDJSON (application/x-ndjson) file',
    );
  }
  if ((input.file.length ?? 0) > MAX_IMPORT_BYTES) {
    throw new AppError('PAYLOAD_TOO_LARGE', 'An import is at most 100 MB');
  }
  await ctx.jobs.ready();
  const id = uuidv7();
  await imports.insertImport(ctx.db, {
    id,
    userId: user.id,
    apiKeyId: ctx.actor.apiKey?.id ?? null,
    requestId: ctx.requestId,
    address: ctx.clientAddress,
    format,
    dryRun: input.dryRun === 'true',
  });
  try {
    let size = 0;
    let piece = 0;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    for await (const part of input.file.stream) {
      size += part.length;
      if (size > MAX_IMPORT_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', 'An import is at most 100 MB');
      pending.push(part);
      pendingBytes += part.length;
      if (pendingBytes >= PIECE_BYTES) {
        await imports.appendChunk(ctx.db, id, piece++, Buffer.concat(pending));
        pending = [];
        pendingBytes = 0;
      }
    }
    if (pendingBytes > 0) await imports.appendChunk(ctx.db, id, piece++, Buffer.concat(pending));
    if (size === 0) throw new AppError('BAD_REQUEST', 'The file is empty');
    await ctx.db.transaction().execute(async (trx) => {
      await imports.markQueued(trx, id);
      await queueSlice(ctx.jobs, trx, id, 0);
    });
  } catch (error) {
    await imports.deleteImport(ctx.db, id).catch(() => {});
    throw error;
  }
  return getImport(ctx, id);
}

/** An import, to the account that sent it and to admins; anyone else gets 404. */
export async function getImport(ctx: AuthedContext, importId: string): Promise<Import> {
  const row = await loadOr404(importId, (id) => imports.findImport(ctx.db, id), 'Import');
  if (row.user_id !== ctx.actor.user.id && !isAdmin(ctx.actor))
    throw new AppError('NOT_FOUND', 'Import not found');
  return toImport(row);
}
