import { type Deps, IMPORT_BATCH, IMPORT_JOBS, runImport } from '@music/api-router';
import type { BackgroundPart } from './background';

/** How long a job runs an import before it queues the next slice (well within its expiry). */
export const IMPORT_SLICE_MS = 10_000;
/** A slice not finished this long after it was claimed is taken as lost and run again. */
export const IMPORT_EXPIRY_SECONDS = 30;

/**
 * Import runs on every instance: one worker, started the first time the background probe sees
 * an import waiting (./background.ts). A slice goes on from the import's checkpoint, so a slice
 * run twice, or after a restart, applies each record once.
 */
export function importWork(deps: Deps, embedded: boolean): BackgroundPart {
  const batchSize = embedded ? IMPORT_BATCH.embedded : IMPORT_BATCH.server;
  let working = false;
  return {
    failure: 'import worker failed to start; retried in a moment',
    async tick(work) {
      if (working || !work.openImport) return;
      await deps.jobs.work<{ importId: string; slice: number }>(
        IMPORT_JOBS,
        { workers: 1, pollSeconds: 1 },
        (job) => runImport(deps, job.data, { sliceMs: IMPORT_SLICE_MS, batchSize }),
      );
      working = true;
    },
  };
}
