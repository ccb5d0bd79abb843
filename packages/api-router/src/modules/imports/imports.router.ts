import { authedProcedure, rest, router } from '../../trpc';
import { createImportInput, importIdInput, importSchema } from './imports.schema';
import * as imports from './imports.service';

export const importsRouter = router({
  create: authedProcedure
    .meta(
      rest({
        method: 'POST',
        path: '/imports',
        tag: 'imports',
        summary: 'Import songs from a CSV or NDJSON file (up to 100 MB): 202, then follow it',
        description:
          'The body is the file itself (`Content-Type: text/csv` or `application/x-ndjson`). It is ' +
          'taken whole, then read by a worker; follow `GET /imports/{importId}`.',
        status: 202,
        errors: ['FORBIDDEN', 'PAYLOAD_TOO_LARGE'],
        upload: {
          'text/csv':
            'A header row naming some of `title, album, genre, duration, releaseYear, isrc, externalId, ' +
            'artists` (`title` and `duration` required), then a song a line (artist names separated ' +
            'by `;`, a `;` or `\\` in a name written `\\;` or `\\\\`; an empty cell is no value)',
          'application/x-ndjson':
            'A song a line, as JSON: `{title, album, genre, duration, releaseYear, isrc, externalId, ' +
            'artists}` (`artists`: names) or with `artistIds` (ids) instead of `artists`',
        },
      }),
    )
    .input(createImportInput)
    .output(importSchema)
    .mutation(({ ctx, input }) => imports.createImport(ctx, input)),

  get: authedProcedure
    .meta(
      rest({
        method: 'GET',
        path: '/imports/{importId}',
        tag: 'imports',
        summary: 'An import: where it is, its counts, its errors by line',
        // Its progress is written by the import's job, not by its reader: read where it is written.
        reads: 'primary',
      }),
    )
    .input(importIdInput)
    .output(importSchema)
    .query(({ ctx, input }) => imports.getImport(ctx, input.importId)),
});
