import {
  DELIVERY_JOBS,
  type DeliveryAttempt,
  type DeliveryQueue,
  dispatchWebhooks,
  type Logger,
  type UrlPolicy,
} from '@music/api-router';
import { type Db, type Jobs, webhookDeliveries } from '@music/db';
import type { BackgroundPart } from '../runtime/background';
import { deliver } from './deliver';

/** No answer within this long is a failed attempt. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/**
 * A claimed attempt not finished this long after is taken as lost (its instance was killed) and
 * given to another: the timeout and a margin for recording the outcome.
 */
export const ATTEMPT_EXPIRY_SECONDS = DELIVERY_TIMEOUT_MS / 1000 + 5;
/** Deliveries made at once by one instance. */
const WORKERS = 4;

export interface WebhookRuntimeOptions {
  db: Db;
  jobs: Jobs;
  queue: DeliveryQueue;
  log: Logger;
  /** The waits before each retry (WEBHOOK_RETRY_SECONDS). */
  retrySeconds: readonly number[];
  /** Failed attempts in a row that disable a webhook (WEBHOOK_MAX_FAILURES). */
  maxFailures: number;
  policy: UrlPolicy;
}

/**
 * Webhooks at run time, on every instance, each tick of the background probe
 * (../runtime/background.ts): the dispatcher (events to deliveries, ./dispatch.ts in the router
 * package) offered while a webhook is enabled (one instance at a time dispatches), and workers
 * making the attempts queued as jobs. Nothing runs, and the queue's tables are not made, until
 * the first webhook exists.
 */
export function webhookWork(options: WebhookRuntimeOptions): BackgroundPart {
  let working = false;
  return {
    failure: 'webhook dispatch failed; retried in a moment',
    async tick(work) {
      if (!working && work.anyWebhook) {
        await options.jobs.work<DeliveryAttempt>(DELIVERY_JOBS, { workers: WORKERS, pollSeconds: 1 }, (job) =>
          attempt(options, job.data),
        );
        working = true;
      }
      if (work.enabledWebhook) await dispatchWebhooks(options.db, options.queue);
    },
  };
}

/**
 * One attempt of a delivery, as its job says. Recorded only if no one recorded this attempt yet
 * (a job that outlived its expiry may run twice: the receiver may get the delivery twice, with
 * one `webhook-id`, as at-least-once delivery allows; it is counted once). A failure queues the
 * next attempt after the next wait of the schedule, in the same transaction as the record.
 */
async function attempt(options: WebhookRuntimeOptions, job: DeliveryAttempt): Promise<void> {
  const { db, log } = options;
  const delivery = await webhookDeliveries.findDeliveryToSend(db, job.deliveryId);
  if (delivery?.status !== 'pending' || delivery.attempts >= job.attempt) return;
  // A disabled webhook is sent nothing automatically; a ping or a delivery sent again by hand is sent.
  if (!delivery.enabled && job.wait >= 0) {
    await db.transaction().execute((trx) =>
      webhookDeliveries.recordAttempt(trx, {
        id: delivery.id,
        attempt: job.attempt,
        outcome: { status: null, body: null, error: 'Not sent: the webhook is disabled', ms: 0 },
        next: 'failed',
        nextInSeconds: null,
      }),
    );
    return;
  }
  const outcome = await deliver({
    url: delivery.url,
    secret: delivery.secret,
    messageId: delivery.id,
    payload: delivery.payload,
    policy: options.policy,
    timeoutMs: DELIVERY_TIMEOUT_MS,
  });
  const retryIn =
    outcome.ok || job.wait < 0 || job.wait >= options.retrySeconds.length
      ? null
      : (options.retrySeconds[job.wait] ?? null);
  await db.transaction().execute(async (trx) => {
    const recorded = await webhookDeliveries.recordAttempt(trx, {
      id: delivery.id,
      attempt: job.attempt,
      outcome: {
        status: outcome.status,
        body: outcome.body || null,
        error: outcome.error?.slice(0, 1000) ?? null,
        ms: outcome.ms,
      },
      next: outcome.ok ? 'succeeded' : retryIn === null ? 'failed' : 'pending',
      nextInSeconds: retryIn,
    });
    if (!recorded) return;
    const disabled = await webhookDeliveries.countAttempt(trx, {
      webhookId: delivery.webhook_id,
      ok: outcome.ok,
      maxFailures: options.maxFailures,
    });
    if (disabled) {
      log.warn('webhook disabled after failed deliveries in a row', {
        webhookId: delivery.webhook_id,
        failures: options.maxFailures,
      });
    }
    if (retryIn !== null) {
      await options.queue.enqueue(
        trx,
        [{ deliveryId: delivery.id, attempt: job.attempt + 1, wait: job.wait + 1 }],
        retryIn,
      );
    }
  });
}
