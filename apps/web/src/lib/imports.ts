import type { RouterOutputs } from '@music/api-router/types';
import { tryAgainAfter } from '@/lib/errors';

/**
 * Song imports as the console sends and follows them: the file sent as it is to the console's
 * /api/imports (which passes it on to `POST /v1/imports`, streamed), with the media type its
 * name says; the import then followed with `imports.get` until it is done, and its progress,
 * counts and errors by line in words; the errors as a CSV report of their own.
 */

export type Import = RouterOutputs['imports']['get'];
export type ImportError = Import['errors'][number];

/** The files the picker offers. */
export const ACCEPTED_FILES = '.csv,.ndjson,.jsonl';
/** The largest file an import takes (the API refuses more with a 413). */
export const MAX_IMPORT_BYTES = 100 * 1024 * 1024;
/** How often an import under way is read again. */
export const POLL_MS = 500;
/** How many errors an import lists (`counts.failed` counts them all). */
export const LISTED_ERRORS = 1000;

/** The media type a file is sent with, by its name: CSV for `.csv`, NDJSON for anything else. */
export function contentTypeOf(fileName: string): 'text/csv' | 'application/x-ndjson' {
  return /\.csv$/i.test(fileName.trim()) ? 'text/csv' : 'application/x-ndjson';
}

/** Whether an import is still to be read again: queued or running. */
export const isUnderWay = (run: Import | undefined): boolean =>
  run?.status === 'queued' || run?.status === 'running';

/** `imports.get`'s refetchInterval: every POLL_MS while the import is under way, else never. */
export const pollInterval = (run: Import | undefined): number | false => (isUnderWay(run) ? POLL_MS : false);

/**
 * How far an import has got, for a progress bar: `null` while that is unknown (an indeterminate
 * bar). The file's records are not counted before it is read, so the total is the dry run's
 * `read` of the same file, once that is known; a finished import is complete whatever it read.
 */
export function importProgress(run: Import, expected?: number): { value: number; max: number } | null {
  if (run.status === 'succeeded') return { value: 1, max: 1 };
  if (run.status !== 'running' || !expected || expected <= 0) return null;
  return { value: Math.min(run.counts.read, expected), max: expected };
}

const number = (n: number) => n.toLocaleString('en');
const records = (n: number) => `${number(n)} ${n === 1 ? 'record' : 'records'}`;

/** What the progress bar shows in words: "120 of 1,500 records read", "120 records read so far". */
export function progressWords(run: Import, expected?: number): string {
  if (run.status === 'queued') return 'Waiting to start…';
  const { read } = run.counts;
  if (run.status === 'running') {
    return expected
      ? `${number(Math.min(read, expected))} of ${records(expected)} read`
      : `${records(read)} read so far`;
  }
  return `${records(read)} read`;
}

/** The import's counts under their names: what it did, or what it would do (a dry run). */
export function countsOf(run: Import): Array<{ label: string; value: number }> {
  const { read, created, updated, unchanged, failed } = run.counts;
  return [
    { label: 'Records read', value: read },
    { label: run.dryRun ? 'Would create' : 'Created', value: created },
    { label: run.dryRun ? 'Would update' : 'Updated', value: updated },
    { label: 'Unchanged', value: unchanged },
    { label: 'Failed', value: failed },
  ];
}

/** Where an import is, in one sentence (what the page announces as it changes). */
export function statusWords(run: Import): string {
  const checking = run.dryRun;
  switch (run.status) {
    case 'queued':
      return checking ? 'The check is waiting to start…' : 'The import is waiting to start…';
    case 'running':
      return checking ? 'Checking the file…' : 'Importing…';
    case 'failed':
      return checking
        ? 'The check stopped: the file could not be read.'
        : 'The import stopped: the file could not be read.';
    case 'succeeded': {
      const { created, updated, unchanged, failed } = run.counts;
      const done = checking
        ? `Checked: ${number(created)} to create, ${number(updated)} to update, ${number(unchanged)} unchanged`
        : `Imported: ${number(created)} created, ${number(updated)} updated, ${number(unchanged)} unchanged`;
      return `${done}, ${number(failed)} failed.`;
    }
  }
}

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, a quote or a line break. A cell that a
 * spreadsheet would take for a formula (`=`, `+`, `-`, `@`, a tab or a carriage return first:
 * the file's own field names and values come back in the messages) is written after a `'`.
 */
export function csvCell(value: string | number): string {
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The error report: a header row, then `line,field,message` for each error, CRLF line ends. */
export function errorReportCsv(errors: readonly ImportError[]): string {
  const rows = [['line', 'field', 'message'], ...errors.map((e) => [e.line, e.field, e.message])];
  return rows.map((row) => `${row.map(csvCell).join(',')}\r\n`).join('');
}

/** The report's file name: "import-errors-2026-06-15.csv", or "check-errors-…" for a dry run. */
export function errorReportName(run: Pick<Import, 'dryRun' | 'createdAt'>): string {
  return `${run.dryRun ? 'check' : 'import'}-errors-${run.createdAt.slice(0, 10)}.csv`;
}

/** A file the console or the API would not take, in words. */
export class ImportRefused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ImportRefused';
  }
}

/** The words for an import's refusal, by its status and the API's `/v1` error body. */
export function refusalWords(
  status: number,
  body: { message?: unknown } | null,
  retryAfter?: number,
): string {
  const said = typeof body?.message === 'string' ? body.message : '';
  switch (status) {
    case 400:
      return /empty/i.test(said)
        ? 'The file is empty. Choose a file with at least one song in it.'
        : 'The catalogue service reads CSV and NDJSON files only. Choose a .csv, .ndjson or .jsonl file.';
    case 401:
      return 'Your session has ended. Please sign in again.';
    case 403:
      return 'Only admins and artist accounts import songs.';
    case 413:
      return 'The file is larger than 100 MB, the most an import takes. Split it into smaller files.';
    case 429:
      return `Too many requests. ${tryAgainAfter(retryAfter)}`;
    case 0:
    case 502:
    case 503:
    case 504:
      return 'The catalogue service cannot be reached. Try again shortly.';
    default:
      return 'Something went wrong on our side. Try again, and tell us if it keeps happening.';
  }
}

type Fetch = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

/**
 * Sends `file` to be imported (`dryRun`: only checked) and answers the import the API queued.
 * A file over 100 MB is refused here, before it is sent; any refusal throws `ImportRefused`.
 */
export async function sendImport(file: File, dryRun: boolean, send: Fetch): Promise<Import> {
  if (file.size > MAX_IMPORT_BYTES) throw new ImportRefused(413, refusalWords(413, null));
  let res: Response;
  try {
    res = await send(`/api/imports?dryRun=${dryRun}`, {
      method: 'POST',
      headers: { 'content-type': contentTypeOf(file.name) },
      body: file,
      credentials: 'same-origin',
    });
  } catch {
    throw new ImportRefused(0, refusalWords(0, null));
  }
  const body: unknown = await res.json().catch(() => null);
  if (res.status === 202 && typeof body === 'object' && body !== null && 'id' in body) return body as Import;
  const retryAfter = Number(res.headers.get('retry-after') ?? Number.NaN);
  throw new ImportRefused(
    res.status,
    refusalWords(
      res.ok ? 502 : res.status,
      body as { message?: unknown } | null,
      Number.isFinite(retryAfter) ? retryAfter : undefined,
    ),
  );
}
