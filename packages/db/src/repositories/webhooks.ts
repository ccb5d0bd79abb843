import { sql } from 'kysely';
import type { Db } from '../schema';
import type { WebhookRow } from '../schema-integrations';
import { type Keyset, keysetPage, keysetSelections, type OrderKey, pageAfter } from './order';

/** What listings and reads show of a webhook: everything but its secret. */
export type WebhookRecord = Omit<WebhookRow, 'secret'>;

const RECORD_COLUMNS = [
  'id',
  'user_id',
  'url',
  'events',
  'description',
  'from_position',
  'enabled',
  'failures',
  'disabled_at',
  'disabled_reason',
  'created_at',
  'updated_at',
] as const;

/**
 * A new webhook; it is sent the events after the feed's head as it is now (the caller numbers
 * what committed before, so "now" covers every write answered before the webhook was made).
 */
export async function insertWebhook(
  db: Db,
  hook: {
    id: string;
    userId: string;
    url: string;
    events: readonly string[];
    description: string | null;
    secret: string;
  },
): Promise<WebhookRecord> {
  return db
    .insertInto('webhooks')
    .values({
      id: hook.id,
      user_id: hook.userId,
      url: hook.url,
      events: [...hook.events],
      description: hook.description,
      secret: hook.secret,
      from_position: sql<string>`(select head from change_feed)`,
    })
    .returning(RECORD_COLUMNS)
    .executeTakeFirstOrThrow();
}

export async function findWebhook(db: Db, id: string): Promise<WebhookRecord | undefined> {
  return db.selectFrom('webhooks').select(RECORD_COLUMNS).where('id', '=', id).executeTakeFirst();
}

/** The webhook, its row locked for the rest of the transaction: what a change or deletion reads. */
export async function lockWebhook(db: Db, id: string): Promise<WebhookRecord | undefined> {
  return db.selectFrom('webhooks').select(RECORD_COLUMNS).where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function countWebhooks(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('webhooks')
    .select((eb) => eb.fn.countAll<string>().as('total'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/** One page of a user's webhooks, oldest first, and how many they have. */
export async function listWebhooks(
  db: Db,
  args: { userId: string; limit: number; offset: number },
): Promise<{ rows: WebhookRecord[]; total: number }> {
  const [rows, total] = await Promise.all([
    db
      .selectFrom('webhooks')
      .select(RECORD_COLUMNS)
      .where('user_id', '=', args.userId)
      .orderBy('created_at')
      .orderBy('id')
      .limit(args.limit)
      .offset(args.offset)
      .execute(),
    countWebhooks(db, args.userId),
  ]);
  return { rows, total };
}

const OLDEST_FIRST: readonly OrderKey<'created_at'>[] = [{ column: 'created_at', descending: false }];

/** A user's webhooks after a position in their order, oldest first (cursor mode). */
export async function listWebhooksAfter(
  db: Db,
  args: { userId: string; limit: number; after: Keyset | null },
): Promise<{ rows: WebhookRecord[]; next: Keyset | null }> {
  const rows = await db
    .selectFrom('webhooks')
    .select(RECORD_COLUMNS)
    .select(keysetSelections('webhooks', undefined, OLDEST_FIRST))
    .where('user_id', '=', args.userId)
    .$call(pageAfter('webhooks', undefined, OLDEST_FIRST, args))
    .execute();
  const { rows: kept, next } = keysetPage(rows, args.limit, 1);
  return { rows: kept.map((row) => pick(row)), next };
}

function pick(row: WebhookRecord): WebhookRecord {
  const record = {} as Record<string, unknown>;
  for (const column of RECORD_COLUMNS) record[column] = row[column];
  return record as unknown as WebhookRecord;
}

export interface WebhookChanges {
  url?: string;
  events?: readonly string[];
  description?: string | null;
  /** true: enabled again (its failures in a row start from 0); false: paused by its owner. */
  enabled?: boolean;
}

/** Applies `changes`; undefined when the webhook is gone. */
export async function updateWebhook(
  db: Db,
  id: string,
  changes: WebhookChanges,
): Promise<WebhookRecord | undefined> {
  return db
    .updateTable('webhooks')
    .set({
      ...(changes.url !== undefined ? { url: changes.url } : {}),
      ...(changes.events !== undefined ? { events: [...changes.events] } : {}),
      ...(changes.description !== undefined ? { description: changes.description } : {}),
      ...(changes.enabled === true
        ? { enabled: true, failures: 0, disabled_at: null, disabled_reason: null }
        : {}),
      ...(changes.enabled === false
        ? { enabled: false, disabled_at: sql<Date>`now()`, disabled_reason: 'Paused by its owner' }
        : {}),
      updated_at: sql<Date>`date_trunc('milliseconds', now())`,
    })
    .where('id', '=', id)
    .returning(RECORD_COLUMNS)
    .executeTakeFirst();
}

/** Deletes a webhook and its deliveries; false when there was none. */
export async function deleteWebhook(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom('webhooks').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}
