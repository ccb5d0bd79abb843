import type { QueueOptions } from '@music/db';
import { IMPORT_JOBS } from '../imports/imports.service';
import { DELIVERY_JOBS } from '../webhooks/dispatch';

export interface JobQueueTimings {
  /**
   * Seconds a claimed delivery attempt may run before it is taken as lost (its instance died):
   * the caller's delivery timeout and a margin for recording the outcome.
   */
  deliveryExpireSeconds: number;
  /** Seconds a claimed import slice may run before it is taken as lost: well over a slice's run. */
  importExpireSeconds: number;
  /** Replaces both queues' retry limits (tests want a lost job given up on quickly). */
  retryLimit?: number;
  /** Replaces both queues' waits before a retry. */
  retryDelaySeconds?: number;
}

/**
 * The settings of the job queues, as `createJobs` takes them: the one place they are declared.
 * The expiries come from the caller, which knows how long its workers may take.
 */
export function jobQueues(timings: JobQueueTimings): Record<string, QueueOptions> {
  return {
    // Retries here are for attempts whose instance died (the job expired); a failed delivery
    // is retried on its own schedule (WEBHOOK_RETRY_SECONDS) by the attempt itself.
    [DELIVERY_JOBS]: {
      retryLimit: timings.retryLimit ?? 20,
      retryDelaySeconds: timings.retryDelaySeconds ?? 2,
      expireInSeconds: timings.deliveryExpireSeconds,
    },
    // A slice that failed (the database away) or whose instance died goes on from its checkpoint.
    [IMPORT_JOBS]: {
      retryLimit: timings.retryLimit ?? 50,
      retryDelaySeconds: timings.retryDelaySeconds ?? 5,
      expireInSeconds: timings.importExpireSeconds,
    },
  };
}
