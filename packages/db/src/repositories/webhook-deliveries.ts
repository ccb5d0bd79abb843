import { sql } from 'kysely';
import type { ChangeAudience, Db } from '../schema';
import type { DeliveryRow, DeliveryStatus } from '../schema-integrations';
import { runSql } from '../sql';

/**
 * Deliveries of webhooks: one per event and webhook, made by the dispatcher from the change
 * feed's outbox (numbered events only, in position order), each attempt then a job of the queue.
 */

/** An enabled webhook as the dispatcher matches events against it. */
export interface DispatchHook {
  id: string;
  user_id: string;
  events: string[];
  from_position: string;
  admin: boolean;
}

/** A numbered event as the dispatcher reads it: the data in full and, where any, its redacted form. */
export interface DispatchEvent {
  position: string;
  id: string;
  type: string;
  at: Date;
  resource_type: string;
  resource_id: string;
  data: unknown;
  audience: ChangeAudience;
  owner_id: string | null;
  redacted: unknown;
}

export interface DispatchWindow {
  /** How far deliveries were made (events after it are next). */
  position: string;
  /** The last position the feed gave. */
  head: string;
  hooks: DispatchHook[];
  events: DispatchEvent[];
}

/**
 * What the dispatcher works on next, in the caller's transaction, or undefined when another
 * instance's dispatcher holds the turn (a transaction-scoped try-lock: nobody waits). Reads from
 * the dispatch position, but no earlier than the oldest enabled webhook's start and the feed's
 * horizon, at most `limit` events within `window` positions.
 */
export async function openDispatch(
  trx: Db,
  args: { limit: number; window: number },
): Promise<DispatchWindow | undefined> {
  const { rows: locked } = await sql<{ locked: boolean }>`
    select pg_try_advisory_xact_lock(hashtext('webhook-dispatcher')) as locked`.execute(trx);
  if (!locked[0]?.locked) return undefined;
  const { rows: hooks } = await sql<DispatchHook>`
    select w.id, w.user_id, w.events, w.from_position::text as from_position, u.role = 'admin' as admin
    from webhooks w join users u on u.id = w.user_id
    where w.enabled`.execute(trx);
  const { rows: starts } = await sql<{ position: string; head: string; start: string }>`
    select d.position::text as position, f.head::text as head,
      greatest(d.position, f.horizon, coalesce(${minimum(hooks)}::bigint, f.head))::text as start
    from webhook_dispatch d, change_feed f`.execute(trx);
  const start = starts[0];
  if (!start) throw new Error('webhook_dispatch has no row');
  const { rows: events } = await sql<DispatchEvent>`
    select position::text as position, id, type, at, resource_type, resource_id, data, audience,
      owner_id, redacted
    from change_events
    where position > ${start.start}::bigint and position <= ${start.start}::bigint + ${args.window}
    order by position
    limit ${args.limit}`.execute(trx);
  const end = BigInt(start.start) + BigInt(args.window);
  const head = BigInt(start.head);
  // Where this run ends when it reads fewer than `limit` events: the window's end or the head.
  const last = events.at(-1);
  const position = events.length === args.limit && last ? last.position : String(end < head ? end : head);
  return { position, head: start.head, hooks, events };
}

function minimum(hooks: DispatchHook[]): string | null {
  let least: bigint | null = null;
  for (const hook of hooks) {
    const from = BigInt(hook.from_position);
    if (least === null || from < least) least = from;
  }
  return least === null ? null : String(least);
}

export async function setDispatchPosition(trx: Db, position: string): Promise<void> {
  await sql`update webhook_dispatch set position = greatest(position, ${position}::bigint)`.execute(trx);
}

export interface NewDelivery {
  id: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  payload: string;
}

/** Inserts deliveries (one statement); returns the ids of those that were not there yet. */
export async function insertDeliveries(db: Db, deliveries: readonly NewDelivery[]): Promise<string[]> {
  if (deliveries.length === 0) return [];
  const { rows } = await runSql<{ id: string }>(db, INSERT_DELIVERIES, [JSON.stringify(deliveries)]);
  return rows.map((row) => row.id);
}

const INSERT_DELIVERIES = `insert into webhook_deliveries
    (id, webhook_id, event_id, event_type, payload, status, next_attempt_at)
  select (d->>'id')::uuid, (d->>'webhookId')::uuid, (d->>'eventId')::uuid, d->>'eventType',
    d->>'payload', 'pending', now()
  from jsonb_array_elements($1::jsonb) with ordinality as delivery(d, n)
  order by n
  on conflict (webhook_id, event_id) do nothing
  returning id`;

/** A delivery and what its next attempt needs of its webhook. */
export interface DeliveryToSend extends DeliveryRow {
  url: string;
  secret: string;
  enabled: boolean;
}

export async function findDeliveryToSend(db: Db, id: string): Promise<DeliveryToSend | undefined> {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
    .selectAll('d')
    .select(['w.url', 'w.secret', 'w.enabled'])
    .where('d.id', '=', id)
    .executeTakeFirst();
}

export async function findDelivery(db: Db, id: string): Promise<DeliveryRow | undefined> {
  return db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A webhook's deliveries, newest first, after `before` (an id) when given; one more than `limit`. */
export async function listDeliveries(
  db: Db,
  args: { webhookId: string; before: string | undefined; limit: number },
): Promise<DeliveryRow[]> {
  let query = db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('webhook_id', '=', args.webhookId)
    .orderBy('id', 'desc')
    .limit(args.limit + 1);
  if (args.before !== undefined) query = query.where('id', '<', args.before);
  return query.execute();
}

export interface AttemptOutcome {
  status: number | null;
  body: string | null;
  error: string | null;
  ms: number;
}

/**
 * Records attempt number `attempt` of a delivery (its `attempts` must still be `attempt - 1`: an
 * attempt recorded twice, by an instance whose job had expired meanwhile, counts once) and what
 * follows: `succeeded`, another attempt at `nextInSeconds`, or `failed`. Returns false when the
 * attempt was already recorded.
 */
export async function recordAttempt(
  trx: Db,
  args: {
    id: string;
    attempt: number;
    outcome: AttemptOutcome;
    next: DeliveryStatus;
    nextInSeconds: number | null;
  },
): Promise<boolean> {
  const result = await trx
    .updateTable('webhook_deliveries')
    .set({
      attempts: args.attempt,
      status: args.next,
      last_attempt_at: sql<Date>`date_trunc('milliseconds', now())`,
      response_status: args.outcome.status,
      response_body: args.outcome.body,
      error: args.outcome.error,
      duration_ms: Math.round(args.outcome.ms),
      next_attempt_at:
        args.nextInSeconds === null ? null : sql<Date>`now() + make_interval(secs => ${args.nextInSeconds})`,
    })
    .where('id', '=', args.id)
    .where('attempts', '=', args.attempt - 1)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Counts an attempt's outcome on its webhook: a success resets the failures in a row; a failure
 * adds one and, at `maxFailures`, disables the webhook. Returns whether this call disabled it.
 */
export async function countAttempt(
  trx: Db,
  args: { webhookId: string; ok: boolean; maxFailures: number },
): Promise<boolean> {
  if (args.ok) {
    await sql`update webhooks set failures = 0 where id = ${args.webhookId} and failures > 0`.execute(trx);
    return false;
  }
  const { rows } = await sql<{ disabled: boolean }>`
    update webhooks set failures = failures + 1,
      enabled = case when failures + 1 >= ${args.maxFailures} then false else enabled end,
      disabled_at = case when enabled and failures + 1 >= ${args.maxFailures} then now() else disabled_at end,
      disabled_reason = case when enabled and failures + 1 >= ${args.maxFailures}
        then ${`Disabled after ${args.maxFailures} failed deliveries in a row`} else disabled_reason end
    where id = ${args.webhookId}
    returning (enabled = false and failures = ${args.maxFailures}) as disabled`.execute(trx);
  return rows[0]?.disabled === true;
}

/** Sends a delivery again: pending, from its current attempt count. Returns the row, or undefined. */
export async function resendDelivery(trx: Db, id: string): Promise<DeliveryRow | undefined> {
  return trx
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', next_attempt_at: sql<Date>`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}
