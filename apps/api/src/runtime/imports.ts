import { type Deps, IMPORT_BATCH, IMPORT_JOBS, runImport } from '@music/api-router';
import { imports } from '@music/db';

/** How long a job runs an import before it queues the next slice (well within its expiry). */
export const IMPORT_SLICE_MS = 10_000;
/** A slice not finished this long after it was claimed is taken as lost and run again. */
export const IMPORT_EXPIRY_SECONDS = 30;

/**
 * Import runs on every instance: one worker, started once an import waits (until then, one
 * index probe a second). A slice goes on from the import's checkpoint, so a slice run twice, or
 * after a restart, applies each record once.
 */
export function startImports(deps: Deps, embedded: boolean): { stop(): Promise<void> } {
  const batchSize = embedded ? IMPORT_BATCH.embedded : IMPORT_BATCH.server;
  let working = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  async function tick(): Promise<void> {
    if (working || !(await imports.anyOpenImport(deps.db))) return;
    await deps.jobs.work<{ importId: string; slice: number }>(
      IMPORT_JOBS,
      { workers: 1, pollSeconds: 1 },
      (job) => runImport(deps, job.data, { sliceMs: IMPORT_SLICE_MS, batchSize }),
    );
    working = true;
  }

  function schedule() {
    if (stopped || working) return;
    timer = setTimeout(() => {
      running = tick()
        .catch((error: unknown) =>
          deps.log.warn('import worker failed to start; retried in a moment', {
            error: error instanceof Error ? error.message : String(error),
          }),
        )
        .finally(() => {
          running = undefined;
          schedule();
        });
    }, 1_000);
    timer.unref();
  }
  schedule();

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
