import { changeEvents, type Db, derivedJobId, type Jobs, uuidv7, webhookDeliveries } from '@music/db';
import { typesNamed } from '../../changes';
import { toIso } from '../../schemas';

/**
 * From the change feed to deliveries. The dispatcher reads the outbox's numbered events after its
 * own position (one dispatcher at a time across instances), makes a delivery for each event and
 * each enabled webhook that asked for its type and whose owner may read it, queues each
 * delivery's first attempt, and moves its position: all in one transaction, so an event is
 * dispatched exactly once whatever crashes, and a delivery exists exactly when its job does.
 */

/** One attempt of a delivery, as a job of the queue. */
export interface DeliveryAttempt {
  deliveryId: string;
  /** Which attempt this is (1 for the first). */
  attempt: number;
  /**
   * Which of the retry waits follows this attempt if it fails (an index into the schedule); -1:
   * none (a delivery sent again by hand is tried once).
   */
  wait: number;
}

/** Where attempts wait their turn: jobs in PostgreSQL (apps/api uses pg-boss). */
export interface DeliveryQueue {
  /** Resolves once jobs can be queued (the queue's tables exist); called outside transactions. */
  ready(): Promise<void>;
  /** Queues attempts in `trx`: they exist exactly when it commits. */
  enqueue(trx: Db, attempts: readonly DeliveryAttempt[], delaySeconds?: number): Promise<void>;
}

/** The queue of delivery attempts. */
export const DELIVERY_JOBS = 'webhook-delivery';

/** Delivery attempts as jobs of `jobs` (pg-boss). */
export function deliveryQueue(jobs: Jobs): DeliveryQueue {
  return {
    ready: () => jobs.ready(),
    enqueue: (trx, attempts, delaySeconds) =>
      jobs.send(
        trx,
        DELIVERY_JOBS,
        attempts.map((attempt) => ({
          // The same attempt of the same delivery queued twice (a worker that recorded it and
          // died before its job was marked done) is one job.
          id: derivedJobId(attempt.deliveryId, attempt.attempt),
          data: attempt,
          ...(delaySeconds ? { delaySeconds } : {}),
        })),
      ),
  };
}

/** A change-feed event as a webhook receives it: the feed's own representation of it. */
export function eventBody(event: {
  id: string;
  type: string;
  at: Date;
  resource_type: string;
  resource_id: string;
  data: unknown;
}): string {
  return JSON.stringify({
    id: event.id,
    type: event.type,
    at: toIso(event.at),
    resource: { type: event.resource_type, id: event.resource_id },
    data: event.data,
  });
}

/** The data of `event` as the owner of `hook` may read it, or undefined when they may not. */
function readableData(hook: webhookDeliveries.DispatchHook, event: webhookDeliveries.DispatchEvent): unknown {
  if (hook.admin || event.audience === 'everyone') return event.data;
  if (event.audience === 'owner') {
    if (event.owner_id === hook.user_id) return event.data;
    return event.redacted ?? undefined;
  }
  return undefined;
}

/** The deliveries a window of events makes: per event, per webhook that wants it and may read it. */
export function deliveriesFor(window: webhookDeliveries.DispatchWindow): webhookDeliveries.NewDelivery[] {
  const wanted = new Map(
    window.hooks.map((hook) => {
      const named = typesNamed(hook.events);
      return [hook.id, new Set<string>('types' in named ? named.types : [])];
    }),
  );
  const deliveries: webhookDeliveries.NewDelivery[] = [];
  for (const event of window.events) {
    for (const hook of window.hooks) {
      if (BigInt(event.position) <= BigInt(hook.from_position)) continue;
      if (!wanted.get(hook.id)?.has(event.type)) continue;
      // A user event is for admins: a webhook of an owner no longer admin is not sent it.
      const data = readableData(hook, event);
      if (data === undefined) continue;
      deliveries.push({
        id: uuidv7(),
        webhookId: hook.id,
        eventId: event.id,
        eventType: event.type,
        payload: eventBody({ ...event, data }),
      });
    }
  }
  return deliveries;
}

/** Events one dispatch transaction reads at most, within a window of positions. */
const EVENTS_PER_RUN = 500;

/**
 * Dispatches what the feed holds after the dispatcher's position: numbers what committed first,
 * then runs of EVENTS_PER_RUN, each in its own transaction, until the head (at most `runs`).
 * Returns how many deliveries it made, or undefined when another instance held the turn.
 */
export async function dispatchWebhooks(db: Db, queue: DeliveryQueue, runs = 20): Promise<number | undefined> {
  await changeEvents.sequenceChanges(db, 4);
  let made = 0;
  for (let run = 0; run < runs; run++) {
    const outcome = await db.transaction().execute(async (trx) => {
      const window = await webhookDeliveries.openDispatch(trx, {
        limit: EVENTS_PER_RUN,
        window: changeEvents.SCAN_WINDOW,
      });
      if (!window) return undefined;
      const ids = await webhookDeliveries.insertDeliveries(trx, deliveriesFor(window));
      await queue.enqueue(
        trx,
        ids.map((deliveryId) => ({ deliveryId, attempt: 1, wait: 0 })),
      );
      await webhookDeliveries.setDispatchPosition(trx, window.position);
      return { made: ids.length, done: window.position === window.head };
    });
    if (outcome === undefined) return run === 0 ? undefined : made;
    made += outcome.made;
    if (outcome.done) break;
  }
  return made;
}
