import type { AuditEventRow } from '@music/db';
import { z } from 'zod';
import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES } from '../../audit';
import { dateTime, pageQuery, toIso, uuidField } from '../../schemas';

const changeSchema = z
  .union([
    z.object({ before: z.unknown(), after: z.unknown() }).meta({
      description: 'The field’s value before and after the write (null where it had none)',
    }),
    z.literal('changed').meta({ description: 'A password: only the fact that it changed' }),
  ])
  .meta({ id: 'AuditChange' });

export const auditEventSchema = z
  .object({
    id: z.uuid(),
    at: dateTime.meta({ description: 'When the write committed, on the database’s clock' }),
    actor: z
      .object({
        userId: z
          .uuid()
          .nullable()
          .meta({ description: 'The user who wrote; null for an anonymous sign-up' }),
        apiKeyId: z.uuid().nullable().meta({ description: 'The API key the request was made with, if any' }),
      })
      .meta({ description: 'Who made the write' }),
    action: z.enum(AUDIT_ACTIONS),
    target: z.object({ type: z.enum(AUDIT_TARGET_TYPES), id: z.uuid() }).meta({
      description: 'The record written',
    }),
    changes: z.record(z.string().max(100), changeSchema).meta({
      description: 'Each changed field with its values before and after; a password only as `changed`',
    }),
    requestId: z.string().max(128).meta({ description: 'The request’s `X-Request-Id`' }),
    address: z.string().max(255).meta({ description: 'The client’s network address' }),
  })
  .meta({ id: 'AuditEvent' });

export type AuditEvent = z.infer<typeof auditEventSchema>;

export const auditEventPageSchema = z
  .object({
    data: z.array(auditEventSchema).max(100),
    nextCursor: z.string().max(200).nullable().meta({
      description: 'Pass as `cursor` for the next (older) page; null on the last page',
    }),
  })
  .meta({ id: 'AuditEventPage' });

const list = (values: readonly string[]) => values.map((v) => `\`${v}\``).join(', ');

// `targetType`, `action`, `since`, `until` and `cursor` are checked by the service: a bad one is a
// 422 on its field (not the 400 of other malformed query parameters).
export const listAuditEventsInput = z.strictObject({
  targetType: z
    .string()
    .max(100)
    .optional()
    .meta({ description: `Only events about this kind of record: ${list(AUDIT_TARGET_TYPES)}` }),
  targetId: uuidField().optional().meta({ description: 'Only events about this record (its id)' }),
  actorId: uuidField().optional().meta({ description: 'Only events of writes by this user (their id)' }),
  action: z
    .string()
    .max(100)
    .optional()
    .meta({ description: `Only events of this action: ${list(AUDIT_ACTIONS)}` }),
  since: z
    .string()
    .max(100)
    .optional()
    .meta({ description: 'Only events at or after this ISO 8601 date-time', format: 'date-time' }),
  until: z
    .string()
    .max(100)
    .optional()
    .meta({ description: 'Only events before this ISO 8601 date-time', format: 'date-time' }),
  cursor: z
    .string()
    .max(200)
    .optional()
    .meta({ description: 'The `nextCursor` of the page before; omitted: the newest events' }),
  limit: pageQuery.limit,
});
export type ListAuditEventsInput = z.infer<typeof listAuditEventsInput>;

export function toAuditEvent(row: AuditEventRow): AuditEvent {
  return {
    id: row.id,
    at: toIso(row.at),
    actor: { userId: row.actor_user_id, apiKeyId: row.actor_api_key_id },
    action: row.action as AuditEvent['action'],
    target: { type: row.target_type as AuditEvent['target']['type'], id: row.target_id },
    changes: row.changes,
    requestId: row.request_id,
    address: row.address,
  };
}
