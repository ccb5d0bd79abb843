import type { Logger } from '@music/api-router';
import { type BackgroundWork, backgroundWork, type Db, type Jobs } from '@music/db';

/** One kind of background work, told every tick what the probe found. */
export interface BackgroundPart {
  /** What is logged (with the error) when `tick` fails; it is asked again next tick. */
  failure: string;
  tick(work: BackgroundWork): Promise<void>;
}

export interface BackgroundOptions {
  db: Db;
  jobs: Jobs;
  log: Logger;
  /** How often the probe runs (and each part is told what it found). */
  everyMs: number;
  parts: readonly BackgroundPart[];
}

/**
 * The background work of an instance (webhook dispatch and delivery workers, import workers)
 * driven by one timer and one probe: an idle instance asks the database one query a tick, not
 * one per kind of work. Each part is told what the probe found; the parts run side by side and
 * a failing one does not hold up the others. Stopping stops the job workers too: the jobs under
 * way get the grace to finish, the rest go back to the queue.
 */
export function startBackground(options: BackgroundOptions): { stop(graceMs?: number): Promise<void> } {
  const { db, log } = options;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  const warn = (message: string, error: unknown) =>
    log.warn(message, { error: error instanceof Error ? error.message : String(error) });

  async function tick(): Promise<void> {
    const work = await backgroundWork(db);
    await Promise.all(
      options.parts.map((part) => part.tick(work).catch((error) => warn(part.failure, error))),
    );
  }

  function schedule() {
    if (stopped) return;
    timer = setTimeout(() => {
      running = tick()
        .catch((error: unknown) => warn('background work probe failed; retried in a moment', error))
        .finally(() => {
          running = undefined;
          schedule();
        });
    }, options.everyMs);
    timer.unref();
  }
  schedule();

  return {
    async stop(graceMs = 10_000) {
      stopped = true;
      clearTimeout(timer);
      await running;
      await options.jobs.stop(graceMs);
    },
  };
}
