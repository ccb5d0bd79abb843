import { changeEvents } from '@music/db';
import { type ChangeType, typesNamed, unknownTypeMessage } from '../../changes';
import { queryFieldError } from '../../cursor';
import { AppError } from '../../errors';
import { type AuthedContext, isAdmin } from '../../kernel';
import { toIso } from '../../schemas';
import type { ChangeEvent, ListChangeEventsInput } from './events.schema';

/**
 * The cursor is opaque to clients: base64url of `changes.<position>`, the last position the read
 * looked at (see repositories/change-events.ts for why a position never lets an event by).
 */
export function encodeCursor(position: string): string {
  return Buffer.from(`changes.${position}`).toString('base64url');
}

export function decodeCursor(cursor: string): string | undefined {
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(cursor)) return undefined;
  const match = /^changes\.(0|[1-9]\d{0,17})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return match?.[1];
}

/** `types` as the list of types it names (`song.*`: every type of songs), or a 422 on `types`. */
function typesOf(types: string | undefined): ChangeType[] | undefined {
  if (types === undefined) return undefined;
  const named = typesNamed(types.split(',').map((t) => t.trim()));
  if ('unknown' in named) throw queryFieldError('types', unknownTypeMessage(named.unknown));
  return named.types;
}

function toChangeEvent(row: changeEvents.ChangeRow): ChangeEvent {
  return {
    id: row.id,
    type: row.type as ChangeType,
    at: toIso(row.at),
    resource: { type: row.resource_type as ChangeEvent['resource']['type'], id: row.resource_id },
    data: row.data as Record<string, unknown>,
  };
}

/**
 * The events after `after` (or from the oldest kept) that the caller may read, in commit order.
 * Numbers what committed since the last read first, so a write whose answer came back before this
 * request is in it (unless over NUMBERED_PER_READ events were waiting).
 */
export async function listChangeEvents(
  ctx: AuthedContext,
  input: ListChangeEventsInput,
): Promise<{ data: ChangeEvent[]; nextCursor: string }> {
  const after = input.after === undefined ? undefined : decodeCursor(input.after);
  if (input.after !== undefined && after === undefined) {
    throw queryFieldError('after', 'Not a cursor this feed gave out');
  }
  const types = typesOf(input.types);
  await changeEvents.sequenceChanges(ctx.db, NUMBERED_PER_READ / changeEvents.SEQUENCE_BATCH);
  const reader = { admin: isAdmin(ctx.actor), userId: ctx.actor.user.id };
  const first = await changeEvents.readChanges(ctx.db, { after, types, reader, limit: input.limit });
  if (after !== undefined && BigInt(after) < BigInt(first.horizon)) {
    throw new AppError(
      'GONE',
      'Events after this cursor are no longer kept (older than the retention): read again without `after`',
    );
  }
  if (after !== undefined && BigInt(after) > BigInt(first.head)) {
    throw queryFieldError('after', 'Not a cursor this feed gave out');
  }
  // A read looks at a bounded window of positions; where the caller may see few of them (a
  // filter, another user's private playlists), it reads on through a few more windows before
  // it answers, so a short page almost always means the head was reached.
  const rows = [...first.rows];
  let { scannedTo, head } = first;
  for (
    let window = 1;
    window < WINDOWS_PER_READ && rows.length < input.limit && scannedTo !== head;
    window++
  ) {
    const next = await changeEvents.readChanges(ctx.db, {
      after: scannedTo,
      types,
      reader,
      limit: input.limit - rows.length,
    });
    rows.push(...next.rows);
    ({ scannedTo, head } = next);
  }
  return { data: rows.map(toChangeEvent), nextCursor: encodeCursor(scannedTo) };
}

/**
 * How many waiting events a read numbers before it reads, at most: the whole backlog but after a
 * long time with no reader and no clean-up (the clean-up numbers up to 250,000 a run).
 */
const NUMBERED_PER_READ = 200_000;

/** How many windows of positions (changeEvents.SCAN_WINDOW each) one read looks through at most. */
const WINDOWS_PER_READ = 10;
