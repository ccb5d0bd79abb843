import type { Logger } from '@music/api-router';
import { claimHousekeeping, type Db, hurryHousekeeping, recordHousekeeping, removeExpired } from '@music/db';

const JOB = 'remove-expired';

export interface HousekeepingOptions {
  db: Db;
  log: Logger;
  /** One run per this many seconds across all instances (each instance offers that often). */
  periodSeconds: number;
  /** At most this many rows removed per table per run. */
  batchSize: number;
  /** The login throttle's window: a window older than this has ended. */
  throttleWindowSeconds: number;
  /** Audit events older than this many days are removed. */
  auditRetentionDays: number;
  /** Change-feed events older than this many days are removed. */
  eventRetentionDays: number;
  /** Told of each run this instance made, and of each that failed (metrics). */
  onRun?: (outcome: 'ran' | 'failed', removed: number) => void;
}

/**
 * The service cleans up after itself: sessions that expired or were revoked, refresh tokens
 * past their expiry, ended throttle windows, audit and change-feed events past their retention
 * (see removeExpired). Every instance offers to run
 * the clean-up once per period, at a random point of it so instances started together do not
 * ask at once; the database lets exactly one run it per period (claimHousekeeping), whatever
 * the number of instances. A run that hit its bound asks for the next one soon, so a backlog
 * drains over a few runs instead of one long one. Failures are logged and retried next period.
 */
export function startHousekeeping(options: HousekeepingOptions): { stop(): Promise<void> } {
  const { db, log } = options;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  async function offer(): Promise<void> {
    if (!(await claimHousekeeping(db, JOB, options.periodSeconds))) return;
    const removed = await removeExpired(db, {
      limit: options.batchSize,
      throttleWindowSeconds: options.throttleWindowSeconds,
      auditRetentionDays: options.auditRetentionDays,
      eventRetentionDays: options.eventRetentionDays,
    });
    const counts = Object.values(removed);
    const total = counts.reduce((sum, n) => sum + n, 0);
    await recordHousekeeping(db, JOB, total);
    if (counts.some((n) => n >= options.batchSize)) {
      await hurryHousekeeping(db, JOB, Math.min(10, options.periodSeconds));
    }
    options.onRun?.('ran', total);
    if (total > 0) log.info('housekeeping removed expired records', { ...removed });
  }

  function schedule(delayMs: number) {
    if (stopped) return;
    timer = setTimeout(() => {
      running = offer()
        .catch((error: unknown) => {
          options.onRun?.('failed', 0);
          log.warn('housekeeping failed; retried next period', {
            error: error instanceof Error ? error.message : String(error),
          });
        })
        .finally(() => {
          running = undefined;
          // Every instance asks once per period (whether it ran or not), so a claim made due
          // early by a run that hit its bound is picked up within ~10 s by someone.
          schedule(Math.min(options.periodSeconds, 10) * 1000 * (0.5 + Math.random()));
        });
    }, delayMs);
    timer.unref();
  }
  schedule(Math.min(options.periodSeconds, 10) * 1000 * Math.random());

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
