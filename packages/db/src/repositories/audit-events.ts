import { sql } from 'kysely';
import type { AuditChange, AuditEventRow, Db } from '../schema';
import { statement } from '../sql';

/** What a write records about itself; `at` is the database's clock. */
export interface NewAuditEvent {
  id: string;
  actorUserId: string | null;
  actorApiKeyId: string | null;
  action: string;
  targetType: string;
  targetId: string;
  changes: Record<string, AuditChange>;
  requestId: string;
  address: string;
}

/** Inserts the event; called with the transaction of the write it records. */
export async function insertAuditEvent(db: Db, event: NewAuditEvent): Promise<void> {
  await db
    .insertInto('audit_events')
    .values({
      id: event.id,
      actor_user_id: event.actorUserId,
      actor_api_key_id: event.actorApiKeyId,
      action: event.action,
      target_type: event.targetType,
      target_id: event.targetId,
      changes: sql<string>`${JSON.stringify(event.changes)}::jsonb`,
      request_id: event.requestId,
      address: event.address,
    })
    .execute();
}

/** Where a page of events starts: after this event, in the newest-first order. */
export interface AuditPosition {
  at: Date;
  id: string;
}

export interface AuditFilters {
  targetType?: string | undefined;
  targetId?: string | undefined;
  actorUserId?: string | undefined;
  action?: string | undefined;
  /** At or after. */
  since?: Date | undefined;
  /** Strictly before. */
  until?: Date | undefined;
}

/**
 * Up to `limit` events matching every filter given, newest first by (`at`, `id`), from just after
 * `after` (keyset paging: a page stays exact while events are added or removed around it).
 */
export function listAuditEvents(
  db: Db,
  args: AuditFilters & { after?: AuditPosition | undefined; limit: number },
): Promise<AuditEventRow[]> {
  let query = db.selectFrom('audit_events').selectAll();
  if (args.targetType !== undefined) query = query.where('target_type', '=', args.targetType);
  if (args.targetId !== undefined) query = query.where('target_id', '=', args.targetId);
  if (args.actorUserId !== undefined) query = query.where('actor_user_id', '=', args.actorUserId);
  if (args.action !== undefined) query = query.where('action', '=', args.action);
  if (args.since !== undefined) query = query.where('at', '>=', args.since);
  if (args.until !== undefined) query = query.where('at', '<', args.until);
  const after = args.after;
  if (after !== undefined) {
    query = query.where((eb) => eb(eb.refTuple('at', 'id'), '<', eb.tuple(after.at, after.id)));
  }
  return query.orderBy('at', 'desc').orderBy('id', 'desc').limit(args.limit).execute();
}

/** The default of AUDIT_RETENTION_DAYS: events are kept a year. */
export const AUDIT_RETENTION_DAYS = 365;

/** Removes at most `limit` events older than `retentionDays`, oldest first; returns how many. */
export async function removeOldAuditEvents(
  db: Db,
  args: { retentionDays: number; limit: number },
): Promise<number> {
  const result = await removeOld.run(db, args);
  return Number(result.numAffectedRows ?? 0n);
}

const removeOld = statement((db, p: { retentionDays: number; limit: number }) => {
  const old = sql<boolean>`at < now() - make_interval(days => ${p.retentionDays})`;
  return db
    .deleteFrom('audit_events')
    .where(
      'id',
      '=',
      sql<string>`any(array(${db.selectFrom('audit_events').select('id').where(old).orderBy('at').limit(p.limit)}))`,
    )
    .where(old);
});
