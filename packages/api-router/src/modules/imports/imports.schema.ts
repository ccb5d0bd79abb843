import type { ImportRow } from '@music/db';
import { z } from 'zod';
import { fileUploadSchema } from '../../files';
import { dateTime, idParam, toIso } from '../../schemas';

export const importErrorSchema = z
  .object({
    line: z
      .number()
      .int()
      .min(1)
      .meta({ description: 'The line of the file the record starts on (the header is line 1 of a CSV)' }),
    field: z.string().max(200).meta({ description: 'The field at fault; empty for the record as a whole' }),
    message: z.string().max(1000),
  })
  .meta({ id: 'ImportError' });

export const importSchema = z
  .object({
    id: z.uuid(),
    status: z.enum(['queued', 'running', 'succeeded', 'failed']).meta({
      description:
        '`queued` until a worker takes it, `running`, then `succeeded` (every record read; some may ' +
        'have failed: see `counts.failed`) or `failed` (the file could not be read on: see `failure`)',
    }),
    dryRun: z.boolean().meta({ description: 'Only validated: nothing was written' }),
    format: z.enum(['csv', 'ndjson']),
    counts: z
      .object({
        read: z.number().int().min(0),
        created: z.number().int().min(0),
        updated: z.number().int().min(0),
        unchanged: z.number().int().min(0),
        failed: z.number().int().min(0),
      })
      .meta({ description: 'Records so far: read, and what each did (would do, in a dry run)' }),
    errors: z.array(importErrorSchema).max(1000).meta({
      description: 'Why records failed, by line: the first 1000 (`counts.failed` counts them all)',
    }),
    failure: z.string().max(1000).nullable().meta({ description: 'Why the import stopped, when `failed`' }),
    createdAt: dateTime,
    startedAt: dateTime.nullable(),
    finishedAt: dateTime.nullable(),
  })
  .meta({ id: 'Import' });
export type Import = z.infer<typeof importSchema>;

export function toImport(row: ImportRow): Import {
  return {
    id: row.id,
    // A file still being received is not visible to anyone: its POST has not answered yet.
    status: row.status === 'receiving' ? 'queued' : row.status,
    dryRun: row.dry_run,
    format: row.format,
    counts: {
      read: row.read,
      created: row.created,
      updated: row.updated,
      unchanged: row.unchanged,
      failed: row.failed,
    },
    errors: row.errors,
    failure: row.failure,
    createdAt: toIso(row.created_at),
    startedAt: row.started_at ? toIso(row.started_at) : null,
    finishedAt: row.finished_at ? toIso(row.finished_at) : null,
  };
}

export const createImportInput = z.strictObject({
  dryRun: z.enum(['true', 'false']).default('false').meta({
    description: '`true`: only validate every record (and count what it would do); nothing is written',
  }),
  file: fileUploadSchema,
});
export type CreateImportInput = z.infer<typeof createImportInput>;

export const importIdInput = z.strictObject({ importId: idParam('import') });
