import { describe, expect, it } from 'vitest';
import {
  contentTypeOf,
  countsOf,
  csvCell,
  errorReportCsv,
  errorReportName,
  type Import,
  ImportRefused,
  importProgress,
  isUnderWay,
  MAX_IMPORT_BYTES,
  POLL_MS,
  pollInterval,
  progressWords,
  refusalWords,
  sendImport,
  statusWords,
} from './imports';

const run = (changes: Partial<Import> = {}, counts: Partial<Import['counts']> = {}): Import => ({
  id: '0190a5a0-0000-7000-8000-000000000001',
  status: 'running',
  dryRun: false,
  format: 'csv',
  counts: { read: 0, created: 0, updated: 0, unchanged: 0, failed: 0, ...counts },
  errors: [],
  failure: null,
  createdAt: '2026-06-15T12:00:00.000Z',
  startedAt: null,
  finishedAt: null,
  ...changes,
});

describe('contentTypeOf: the media type by the file name', () => {
  it('sends .csv as CSV, whatever its case, and anything else as NDJSON', () => {
    expect(contentTypeOf('songs.csv')).toBe('text/csv');
    expect(contentTypeOf('SONGS.CSV')).toBe('text/csv');
    expect(contentTypeOf('songs.ndjson')).toBe('application/x-ndjson');
    expect(contentTypeOf('songs.jsonl')).toBe('application/x-ndjson');
    expect(contentTypeOf('songs.csv.jsonl')).toBe('application/x-ndjson');
    expect(contentTypeOf('csv')).toBe('application/x-ndjson');
  });
});

describe('following an import', () => {
  it('reads it again every half second while it is queued or running, and then never', () => {
    expect(POLL_MS).toBe(500);
    expect(pollInterval(run({ status: 'queued' }))).toBe(500);
    expect(pollInterval(run({ status: 'running' }))).toBe(500);
    expect(pollInterval(run({ status: 'succeeded' }))).toBe(false);
    expect(pollInterval(run({ status: 'failed' }))).toBe(false);
    expect(pollInterval(undefined)).toBe(false);
    expect(isUnderWay(run({ status: 'queued' }))).toBe(true);
    expect(isUnderWay(run({ status: 'failed' }))).toBe(false);
  });

  it('has an indeterminate bar until the check has counted the records, then a determinate one', () => {
    expect(importProgress(run({ status: 'queued' }), 10)).toBeNull();
    expect(importProgress(run({}, { read: 4 }))).toBeNull();
    expect(importProgress(run({}, { read: 4 }), 0)).toBeNull();
    expect(importProgress(run({}, { read: 4 }), 10)).toEqual({ value: 4, max: 10 });
    // The file changed since it was checked: never past the end.
    expect(importProgress(run({}, { read: 12 }), 10)).toEqual({ value: 10, max: 10 });
    expect(importProgress(run({ status: 'succeeded' }, { read: 3 }))).toEqual({ value: 1, max: 1 });
    expect(importProgress(run({ status: 'failed' }, { read: 3 }), 10)).toBeNull();
  });

  it('says how far it is in words', () => {
    expect(progressWords(run({ status: 'queued' }), 10)).toBe('Waiting to start…');
    expect(progressWords(run({}, { read: 1 }))).toBe('1 record read so far');
    expect(progressWords(run({}, { read: 1234 }))).toBe('1,234 records read so far');
    expect(progressWords(run({}, { read: 1234 }), 5000)).toBe('1,234 of 5,000 records read');
    expect(progressWords(run({ status: 'succeeded' }, { read: 3 }))).toBe('3 records read');
  });

  it('names the counts for what a check would do and what an import did', () => {
    const counts = { read: 3, created: 2, updated: 0, unchanged: 0, failed: 1 };
    expect(countsOf(run({ dryRun: true }, counts))).toEqual([
      { label: 'Records read', value: 3 },
      { label: 'Would create', value: 2 },
      { label: 'Would update', value: 0 },
      { label: 'Unchanged', value: 0 },
      { label: 'Failed', value: 1 },
    ]);
    expect(countsOf(run({}, counts)).map((c) => c.label)).toEqual([
      'Records read',
      'Created',
      'Updated',
      'Unchanged',
      'Failed',
    ]);
  });

  it('says where a check and an import are, with the outcome once done', () => {
    const counts = { read: 3, created: 2, updated: 0, unchanged: 0, failed: 1 };
    expect(statusWords(run({ dryRun: true, status: 'queued' }))).toBe('The check is waiting to start…');
    expect(statusWords(run({ dryRun: true }))).toBe('Checking the file…');
    expect(statusWords(run({ status: 'running' }))).toBe('Importing…');
    expect(statusWords(run({ dryRun: true, status: 'succeeded' }, counts))).toBe(
      'Checked: 2 to create, 0 to update, 0 unchanged, 1 failed.',
    );
    expect(statusWords(run({ status: 'succeeded' }, counts))).toBe(
      'Imported: 2 created, 0 updated, 0 unchanged, 1 failed.',
    );
    expect(statusWords(run({ status: 'failed' }))).toBe('The import stopped: the file could not be read.');
  });
});

describe('the error report', () => {
  it('quotes a cell with a comma, a quote or a line break, and doubles its quotes', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell(3)).toBe('3');
    expect(csvCell('a, b')).toBe('"a, b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('cr\r')).toBe('"cr\r"');
    expect(csvCell('')).toBe('');
  });

  it('keeps a spreadsheet from taking a cell for a formula', () => {
    expect(csvCell('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-5 is too short')).toBe("'-5 is too short");
    expect(csvCell('@me')).toBe("'@me");
    // A line number is a number, never a formula.
    expect(csvCell(-1)).toBe('-1');
  });

  it('is a header row and a line an error, CRLF-ended', () => {
    const csv = errorReportCsv([
      { line: 4, field: 'duration', message: 'Too small: expected number to be >=1' },
      { line: 7, field: '', message: 'Not a JSON object, "{" missing' },
    ]);
    expect(csv).toBe(
      'line,field,message\r\n' +
        '4,duration,Too small: expected number to be >=1\r\n' +
        '7,,"Not a JSON object, ""{"" missing"\r\n',
    );
    expect(errorReportCsv([])).toBe('line,field,message\r\n');
  });

  it('is named for the run and its day', () => {
    expect(errorReportName(run())).toBe('import-errors-2026-06-15.csv');
    expect(errorReportName(run({ dryRun: true }))).toBe('check-errors-2026-06-15.csv');
  });
});

describe('sending the file', () => {
  const file = (name: string, text = 'title,duration\r\nA,60\r\n') => new File([text], name);
  const answer = (status: number, body: unknown, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json', ...headers },
    });

  it('posts the file itself to /api/imports, typed by its name, and answers the queued import', async () => {
    const seen: Array<{ url: string; init: RequestInit | undefined }> = [];
    const queued = run({ status: 'queued', dryRun: true });
    const made = await sendImport(file('songs.csv'), true, async (url, init) => {
      seen.push({ url: String(url), init });
      return answer(202, queued);
    });
    expect(made).toEqual(queued);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.url).toBe('/api/imports?dryRun=true');
    expect(seen[0]!.init?.method).toBe('POST');
    expect(seen[0]!.init?.headers).toEqual({ 'content-type': 'text/csv' });
    expect(seen[0]!.init?.body).toBeInstanceOf(File);

    await sendImport(file('songs.jsonl', '{}\n'), false, async (url, init) => {
      seen.push({ url: String(url), init });
      return answer(202, queued);
    });
    expect(seen[1]!.url).toBe('/api/imports?dryRun=false');
    expect(seen[1]!.init?.headers).toEqual({ 'content-type': 'application/x-ndjson' });
  });

  it('refuses a file over 100 MB before sending it', async () => {
    const big = file('big.csv');
    Object.defineProperty(big, 'size', { value: MAX_IMPORT_BYTES + 1 });
    let sent = false;
    const refused = await sendImport(big, true, async () => {
      sent = true;
      return answer(202, run());
    }).catch((error: unknown) => error);
    expect(sent).toBe(false);
    expect(refused).toBeInstanceOf(ImportRefused);
    expect((refused as ImportRefused).status).toBe(413);
  });

  it('puts the refusals in words: not a CSV or NDJSON file, empty, too large, not allowed, unreachable', async () => {
    const refusal = (status: number, body: unknown, headers?: Record<string, string>) =>
      sendImport(file('songs.csv'), true, async () => answer(status, body, headers)).catch(
        (error: ImportRefused) => `${error.status}: ${error.message}`,
      );
    expect(
      await refusal(400, { code: 'BAD_REQUEST', message: 'The body must be a CSV (text/csv) or NDJSON' }),
    ).toBe(
      '400: The catalogue service reads CSV and NDJSON files only. Choose a .csv, .ndjson or .jsonl file.',
    );
    expect(await refusal(400, { code: 'BAD_REQUEST', message: 'The file is empty' })).toBe(
      '400: The file is empty. Choose a file with at least one song in it.',
    );
    expect(await refusal(413, { code: 'PAYLOAD_TOO_LARGE', message: 'An import is at most 100 MB' })).toBe(
      '413: The file is larger than 100 MB, the most an import takes. Split it into smaller files.',
    );
    expect(await refusal(403, { code: 'FORBIDDEN', message: 'Only admins…' })).toBe(
      '403: Only admins and artist accounts import songs.',
    );
    expect(await refusal(429, { code: 'TOO_MANY_REQUESTS', message: '…' }, { 'retry-after': '90' })).toBe(
      '429: Too many requests. Try again in 2 minutes.',
    );
    expect(await refusal(503, { code: 'SERVICE_UNAVAILABLE', message: '…' })).toBe(
      '503: The catalogue service cannot be reached. Try again shortly.',
    );
    // Not the API's JSON: a proxy's page.
    const page = await sendImport(
      file('songs.csv'),
      true,
      async () => new Response('<h1>Bad</h1>', { status: 500 }),
    ).catch((error: ImportRefused) => error.message);
    expect(page).toBe(refusalWords(500, null));
    const offline = await sendImport(file('songs.csv'), true, async () => {
      throw new TypeError('Failed to fetch');
    }).catch((error: ImportRefused) => `${error.status}: ${error.message}`);
    expect(offline).toBe('0: The catalogue service cannot be reached. Try again shortly.');
  });
});
