import { auditEvents, isUuid } from '@music/db';
import { z } from 'zod';
import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES } from '../../audit';
import { AppError, type FieldError, validationError } from '../../errors';
import { type AuthedContext, isAdmin } from '../../kernel';
import { type AuditEvent, type ListAuditEventsInput, toAuditEvent } from './audit-events.schema';

type AuditPosition = auditEvents.AuditPosition;

/**
 * The cursor is opaque to clients: base64url of the last event's `at` (whole milliseconds since
 * the epoch) and id, where the next page starts strictly after, newest first.
 */
export function encodeCursor(position: AuditPosition): string {
  return Buffer.from(`${position.at.getTime()}.${position.id}`).toString('base64url');
}

export function decodeCursor(cursor: string): AuditPosition | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  const match = /^(\d{1,15})\.(.+)$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match || !isUuid(match[2])) return undefined;
  const at = new Date(Number(match[1]));
  return Number.isNaN(at.getTime()) ? undefined : { at, id: match[2].toLowerCase() };
}

const DATE_TIME = z.iso.datetime({ offset: true });

/** The query's checked values, or a 422 naming every bad one. */
function filtersOf(input: ListAuditEventsInput) {
  const errors: FieldError[] = [];
  const oneOf = (field: string, value: string | undefined, allowed: readonly string[]) => {
    if (value !== undefined && !allowed.includes(value)) {
      errors.push({ field, message: `Must be one of: ${allowed.join(', ')}` });
    }
  };
  oneOf('targetType', input.targetType, AUDIT_TARGET_TYPES);
  oneOf('action', input.action, AUDIT_ACTIONS);
  const date = (field: string, value: string | undefined) => {
    if (value === undefined) return undefined;
    if (!DATE_TIME.safeParse(value).success) {
      errors.push({ field, message: 'Must be an ISO 8601 date-time, e.g. 2026-11-22T12:00:00Z' });
      return undefined;
    }
    return new Date(value);
  };
  const since = date('since', input.since);
  const until = date('until', input.until);
  const after = input.cursor === undefined ? undefined : decodeCursor(input.cursor);
  if (input.cursor !== undefined && after === undefined) {
    errors.push({ field: 'cursor', message: 'Not a cursor this list gave out' });
  }
  if (errors.length > 0) throw validationError(errors, 'The query failed validation');
  return {
    targetType: input.targetType,
    targetId: input.targetId,
    actorUserId: input.actorId,
    action: input.action,
    since,
    until,
    after,
  };
}

/** Admins only: the events matching every filter given, newest first, a page at a time. */
export async function listAuditEvents(
  ctx: AuthedContext,
  input: ListAuditEventsInput,
): Promise<{ data: AuditEvent[]; nextCursor: string | null }> {
  if (!isAdmin(ctx.actor)) throw new AppError('FORBIDDEN', 'Only admins may read the audit trail');
  const filters = filtersOf(input);
  // One more than the page: whether there is a next page is known without counting.
  const rows = await auditEvents.listAuditEvents(ctx.db, { ...filters, limit: input.limit + 1 });
  const page = rows.slice(0, input.limit);
  const last = page.at(-1);
  return {
    data: page.map(toAuditEvent),
    nextCursor: rows.length > input.limit && last ? encodeCursor({ at: last.at, id: last.id }) : null,
  };
}
