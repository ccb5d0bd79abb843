import { Readable } from 'node:stream';
import { artists, type Db, type ImportError, imports, isUniqueViolation, type Jobs, users } from '@music/db';
import { parse } from 'csv-parse';
import type { Context, Deps } from '../../context';
import { applyRecord, type Importer, type Lookups, lookupsFor } from './import-apply';
import { fromCsv, fromNdjson, headerProblem, type ImportRecord, type RecordError } from './import-rows';
import { queueSlice } from './imports.service';

/**
 * Runs an import: reads its file from the database a piece at a time, parses it as a stream
 * (csv-parse; NDJSON line by line), and applies its records in batches, each batch one
 * transaction with its counts and the import's checkpoint (the last line applied). A run
 * works for a slice of time, then queues the next slice and ends, so no job outlives its
 * expiry; a run that stops (an instance killed or restarted) is taken up again by the queue
 * and goes on after the checkpoint. A dry run applies each batch inside a savepoint it rolls
 * back: its counts are exactly what the import would do, and nothing stays.
 */

/**
 * Records a transaction applies: 500 on a server; on the embedded database, whose one session
 * every request waits for while a transaction holds it, 25 (about a tenth of a second), so
 * requests are answered between batches while an import runs.
 */
export const IMPORT_BATCH = { server: 500, embedded: 25 } as const;

/** A numbered record of the file, checked, or why it is not a record. */
interface Line {
  line: number;
  record: ImportRecord | RecordError[];
}

async function* pieces(db: Db, importId: string): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8');
  for (let n = 0; ; n++) {
    const piece = await imports.readChunk(db, importId, n);
    if (!piece) break;
    yield decoder.decode(piece, { stream: true });
  }
  const rest = decoder.decode();
  if (rest) yield rest;
}

/** A file's problem that ends the import (not one record's). */
class FileProblem extends Error {}

async function* csvLines(db: Db, importId: string): AsyncGenerator<Line> {
  const skipped: Line[] = [];
  const parser = Readable.from(pieces(db, importId)).pipe(
    parse({
      bom: true,
      columns: (header: string[]) => {
        const problem = headerProblem(header.map((c) => c.trim()));
        if (problem) throw new FileProblem(problem);
        return header.map((c) => c.trim());
      },
      info: true,
      skip_empty_lines: true,
      skip_records_with_error: true,
    }),
  );
  parser.on('skip', (error: Error & { lines?: number }) => {
    skipped.push({
      line: error.lines ?? 0,
      record: [{ field: '', message: `Not a CSV record: ${error.message}` }],
    });
  });
  for await (const { record, info } of parser as AsyncIterable<{
    record: Record<string, string>;
    info: { lines: number };
  }>) {
    while (skipped.length > 0) yield skipped.shift()!;
    yield { line: info.lines, record: fromCsv(record) };
  }
  while (skipped.length > 0) yield skipped.shift()!;
}

async function* ndjsonLines(db: Db, importId: string): AsyncGenerator<Line> {
  let rest = '';
  let line = 0;
  for await (const text of pieces(db, importId)) {
    const parts = (rest + text).split('\n');
    rest = parts.pop() ?? '';
    for (const part of parts) {
      line++;
      if (part.trim() !== '') yield { line, record: fromNdjson(part.replace(/\r$/, '')) };
    }
  }
  line++;
  if (rest.trim() !== '') yield { line, record: fromNdjson(rest) };
}

/** The importer as its run starts: the sender's role now. */
async function importerOf(deps: Deps, row: NonNullable<Awaited<ReturnType<typeof imports.findImport>>>) {
  const user = await users.findUserById(deps.db, row.user_id);
  if (!user || (user.role !== 'admin' && user.role !== 'artist')) return undefined;
  const ctx: Context = {
    ...deps,
    actor: { user, sessionId: '', ...(row.api_key_id ? { apiKey: { id: row.api_key_id, scopes: [] } } : {}) },
    clientAddress: row.address,
    requestId: row.request_id,
  };
  const own = user.role === 'artist' ? await artists.findArtistIdsByUserId(deps.db, user.id) : [];
  return { ctx, admin: user.role === 'admin', own } satisfies Importer;
}

/**
 * Applies one batch; false when someone else applied it first (the checkpoint moved). Records are
 * decided before they write (one that fails writes nothing), so a batch needs no savepoint per
 * record; a database error in one (a concurrent write took its ISRC) rolls the batch back, and it
 * is applied again `careful`ly: each record in a savepoint, the failing one reported.
 */
async function applyBatch(
  deps: Deps,
  who: Importer,
  importId: string,
  from: number,
  batch: Line[],
  dryRun: boolean,
  careful = false,
): Promise<boolean> {
  try {
    return await deps.db.transaction().execute(async (trx) => {
      if (!(await imports.claimBatch(trx, importId, from))) return false;
      const counts = { created: 0, updated: 0, unchanged: 0, failed: 0 };
      const errors: ImportError[] = [];
      if (dryRun) await imports.savepoint.set(trx, 'dry_run');
      const valid = batch.flatMap((l) => (Array.isArray(l.record) ? [] : [l.record]));
      const lookups = await lookupsFor(trx, valid);
      const as = { ...who, ctx: { ...who.ctx, db: trx } };
      for (const { line, record } of batch) {
        const outcome = Array.isArray(record) ? record : await applied(trx, as, lookups, record, careful);
        if (Array.isArray(outcome)) {
          counts.failed++;
          for (const e of outcome) errors.push({ line, field: e.field, message: e.message.slice(0, 1000) });
        } else counts[outcome]++;
      }
      if (dryRun) await imports.savepoint.rollback(trx, 'dry_run');
      return imports.recordProgress(trx, importId, from, {
        linesDone: batch.at(-1)!.line,
        read: batch.length,
        ...counts,
        errors,
      });
    });
  } catch (error) {
    if (careful || !isUniqueViolation(error)) throw error;
    return applyBatch(deps, who, importId, from, batch, dryRun, true);
  }
}

/** A record applied; `careful`: in a savepoint, a database error reported as its line's. */
async function applied(trx: Db, who: Importer, lookups: Lookups, record: ImportRecord, careful: boolean) {
  if (!careful) return applyRecord(trx, who, lookups, record);
  await imports.savepoint.set(trx, 'record');
  try {
    const outcome = await applyRecord(trx, who, lookups, record);
    await imports.savepoint.release(trx, 'record');
    return outcome;
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    await imports.savepoint.rollback(trx, 'record');
    return [{ field: '', message: 'Another write took its isrc or externalId meanwhile: import it again' }];
  }
}

/**
 * Runs slice `slice` of an import for up to `sliceMs`, then queues the next one; ends the import
 * when its file is read to the end (or cannot be read on).
 */
export async function runImport(
  deps: Deps & { jobs: Jobs },
  job: { importId: string; slice: number },
  options: { sliceMs: number; batchSize: number },
): Promise<void> {
  const { sliceMs, batchSize } = options;
  const row = await imports.findImport(deps.db, job.importId);
  if (!row || row.status === 'succeeded' || row.status === 'failed' || row.status === 'receiving') return;
  const who = await importerOf(deps, row);
  if (!who) {
    await imports.finishImport(
      deps.db,
      row.id,
      'failed',
      'The account that sent it may no longer import songs',
    );
    return;
  }
  await imports.markRunning(deps.db, row.id);
  const started = Date.now();
  let from = row.lines_done;
  let batch: Line[] = [];
  const lines = row.format === 'csv' ? csvLines(deps.db, row.id) : ndjsonLines(deps.db, row.id);
  try {
    for await (const line of lines) {
      if (line.line <= from) continue;
      batch.push(line);
      if (batch.length < batchSize) continue;
      if (!(await applyBatch(deps, who, row.id, from, batch, row.dry_run))) return;
      from = batch.at(-1)!.line;
      batch = [];
      if (Date.now() - started > sliceMs) {
        await deps.db.transaction().execute((trx) => queueSlice(deps.jobs, trx, row.id, job.slice + 1));
        return;
      }
    }
    if (batch.length > 0 && !(await applyBatch(deps, who, row.id, from, batch, row.dry_run))) return;
  } catch (error) {
    if (!(error instanceof FileProblem || isCsvError(error))) throw error;
    await imports.finishImport(deps.db, row.id, 'failed', (error as Error).message.slice(0, 1000));
    return;
  }
  await imports.finishImport(deps.db, row.id, 'succeeded', null);
}

function isCsvError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof Error && typeof code === 'string' && code.startsWith('CSV_');
}
