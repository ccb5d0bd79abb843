import type { OperationDoc } from '../types';

const IMPORT = {
  id: '01970a3f-1a2b-7c3d-8e4f-5a6b7c8d9e03',
  status: 'succeeded',
  dryRun: false,
  format: 'csv',
  counts: { read: 3, created: 1, updated: 1, unchanged: 0, failed: 1 },
  errors: [{ line: 4, field: 'duration', message: 'Too small: expected number to be >=1' }],
  failure: null,
  createdAt: '2026-12-02T10:00:00Z',
  startedAt: '2026-12-02T10:00:01Z',
  finishedAt: '2026-12-02T10:00:02Z',
};

export const importDocs: Record<string, OperationDoc> = {
  'imports.create': {
    description:
      'Admins import any song; an artist account imports the songs of its own artists (naming only ' +
      'them, changing only its own songs). Each record is a whole song: a field it leaves out (an ' +
      'empty cell) is null. A record with an `isrc` updates the song with that ISRC, else one with ' +
      'an `externalId` updates the song with that externalId, else it creates a song: importing a ' +
      'file again changes nothing (`unchanged`), and a corrected file updates only what changed. ' +
      'Artists are given by name and matched exactly; a name no artist has makes a new artist (admins; ' +
      'an artist account names its own only); a name two artists share is an error of its line (give ' +
      '`artistIds` then, in NDJSON). Every write is audited and in the change feed, as the API’s own. ' +
      'A record that fails is counted and reported with its line and field; the others are applied. ' +
      'With `dryRun=true` every record is checked and counted as it would be applied, and nothing is ' +
      'written. The import survives restarts of the service: it goes on where it was. What ' +
      '`GET /songs/export` writes, this reads back unchanged.',
    response: {
      ...IMPORT,
      status: 'queued',
      counts: { read: 0, created: 0, updated: 0, unchanged: 0, failed: 0 },
      errors: [],
      startedAt: null,
      finishedAt: null,
    },
    errors: {
      BAD_REQUEST:
        'The body is not `text/csv` or `application/x-ndjson`, or is empty; or `dryRun` is not `true` or `false`',
      FORBIDDEN: 'Neither an admin nor an artist account; or an API key without `catalogue:write`',
      PAYLOAD_TOO_LARGE: 'The file is over 100 MB: nothing was kept',
    },
  },
  'imports.get': {
    description:
      'The account that sent it, and admins. `counts` grow as records are applied; `errors` lists ' +
      'the first 1000 failed records by line. A CSV whose header names an unknown column, or that ' +
      'cannot be parsed on, ends `failed` with `failure` saying why (records before it stay applied).',
    response: IMPORT,
    errors: { NOT_FOUND: 'No import with this id among yours (an admin sees every import)' },
  },
};
