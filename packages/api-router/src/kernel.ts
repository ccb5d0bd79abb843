import { attemptWindows, isKeysetWindow, isUuid, type Keyset, type OrderKey } from '@music/db';
import type { z } from 'zod';
import type { Actor, Context } from './context';
import { encodeCursor, type ListInput, windowOf } from './cursor';
import { AppError, validationError } from './errors';
import { etagOf, matchesStrongly } from './etag';
import type { Throttle } from './observer';
import { pageWindow, sortKeys } from './schemas';

/**
 * What every service needs and would otherwise repeat: the authenticated context, the admin
 * check, load-or-404, body references that must exist (422), and the page envelope of lists.
 */

/** The context of an operation that needs a caller (built with `authedProcedure`). */
export type AuthedContext = Context & { actor: Actor };

export const isAdmin = (actor: Actor): boolean => actor.user.role === 'admin';

/**
 * The record a path id names, or 404: a malformed id names nothing (never a database error),
 * so `find` is not asked at all.
 */
export async function loadOr404<T>(
  id: string,
  find: (id: string) => Promise<T | undefined>,
  what: string,
): Promise<T> {
  const row = isUuid(id) ? await find(id) : undefined;
  if (row === undefined) throw new AppError('NOT_FOUND', `${what} not found`);
  return row;
}

type FindExisting = (ids: readonly string[]) => Promise<Set<string>>;

/**
 * Body references that must name existing records: each unknown one is a 422 on `field.N`.
 * Returns the ids lower-cased (UUIDs are case-insensitive).
 */
export function assertIdsExist(
  ids: readonly string[],
  findExisting: FindExisting,
  field: string,
  what: string,
): Promise<string[]> {
  return assertExisting(ids, findExisting, (index) => `${field}.${index}`, what);
}

/** One body reference that must name an existing record: a 422 on `field`. Returns it lower-cased. */
export async function assertIdExists(
  id: string,
  findExisting: FindExisting,
  field: string,
  what: string,
): Promise<string> {
  const [lowered] = await assertExisting([id], findExisting, () => field, what);
  return lowered!;
}

async function assertExisting(
  ids: readonly string[],
  findExisting: FindExisting,
  fieldAt: (index: number) => string,
  what: string,
): Promise<string[]> {
  const lowered = ids.map((id) => id.toLowerCase());
  const existing = await findExisting(lowered);
  const missing = lowered.flatMap((id, index) =>
    existing.has(id) ? [] : [{ field: fieldAt(index), message: `No ${what} with this id` }],
  );
  if (missing.length > 0) throw validationError(missing);
  return lowered;
}

/** One page of a list, as every list answers: `{ data, pagination: { page, limit, total } }`. */
export async function page<Row, Item>(
  input: { page?: number | undefined; limit: number },
  fetch: (window: { limit: number; offset: number }) => Promise<{ rows: Row[]; total: number }>,
  toItem: (row: Row) => Item,
) {
  const { rows, total } = await fetch(pageWindow(input));
  return { data: rows.map(toItem), pagination: { page: input.page ?? 1, limit: input.limit, total } };
}

/** How a cursor-capable list reads its rows: a page by offset with its total, or after a position. */
export interface ListReads<Row> {
  byOffset: (window: { limit: number; offset: number }) => Promise<{ rows: Row[]; total: number }>;
  after: (window: { limit: number; after: Keyset | null }) => Promise<{ rows: Row[]; next: Keyset | null }>;
}

/**
 * One page of a list that pages by number or by cursor (`cursor.ts`): without `cursor`, as
 * `page` answers; with it, `{ data, pagination: { limit, nextCursor } }`. `list` names the list
 * (a cursor is good for it only) and `order` is the order its rows are in, the default one
 * included (a cursor is good for that order only). `isId` says what a row's id looks like when
 * it is no UUID (a genre's is its lower-cased name).
 */
export async function listPage<Row, Item>(
  input: ListInput,
  list: string,
  order: readonly OrderKey<string>[],
  reads: ListReads<Row>,
  toItem: (row: Row) => Item,
  isId?: (id: string) => boolean,
) {
  const window = windowOf(input, list, order, isId);
  if (!isKeysetWindow(window)) {
    const { rows, total } = await reads.byOffset(window);
    const pagination = { page: input.page ?? 1, limit: input.limit, total };
    return { data: rows.map(toItem), pagination };
  }
  const { rows, next } = await reads.after(window);
  const nextCursor = next === null ? null : encodeCursor(list, order, next);
  return { data: rows.map(toItem), pagination: { limit: input.limit, nextCursor } };
}

/** The order a list's rows are in: `sort`'s keys, or the list's default when there are none. */
export function orderOr<Column extends string>(
  keys: OrderKey<Column>[],
  fallback: readonly OrderKey<Column>[],
): readonly OrderKey<Column>[] {
  return keys.length > 0 ? keys : fallback;
}

/**
 * The `sort` parameter as a repository's order: each named field becomes its column in
 * `columns`. Empty when `sort` is empty or omitted, so the repository's default order applies.
 */
export function sortOrder<Field extends string, Column extends string>(
  sort: string | undefined,
  columns: Readonly<Record<Field, Column>>,
): OrderKey<Column>[] {
  return sortKeys<Field>(sort).map((key) => ({ column: columns[key.field], descending: key.descending }));
}

/**
 * `If-Match` on a write (version 1.1): called by the service with the resource's current
 * representation and the output schema its answers go through, read inside the write's
 * transaction after its row is locked, so no other write slips between the check and the change. Without `If-Match` it does nothing; a tag
 * that does not match is a 412 and the transaction changes nothing.
 */
export function assertPrecondition<T>(ctx: Context, schema: z.ZodType<T>, current: T): void {
  if (ctx.ifMatch === undefined) return;
  // Through the output schema, as the answer is: the same JSON, key for key, as the ETag sent.
  if (!matchesStrongly(ctx.ifMatch, etagOf(schema.parse(current)))) {
    throw new AppError(
      'PRECONDITION_FAILED',
      'The resource has changed since you read it (If-Match does not match its ETag)',
    );
  }
}

/** One limit on an action: at most `max` attempts by `subject` per window (0: no limit). */
export interface Limit {
  /** What is limited, and per what: `signup-address`, `reset-email` (a throttle of its own in the metrics). */
  scope: Exclude<Throttle, `sign-in-${string}`>;
  subject: string;
  max: number;
  windowSeconds: number;
}

/**
 * Counts this attempt against each limit, in the order given (shared by every instance, on the
 * database's clock), then refuses it with 429 when any is over, `Retry-After` being the longest
 * wait. An attempt over a limit still counts: hammering does not shorten the wait.
 */
export async function assertWithinLimits(
  ctx: Context,
  limits: readonly Limit[],
  message: string,
): Promise<void> {
  let retryAfter = 0;
  for (const limit of limits) {
    if (limit.max === 0) continue;
    const window = await attemptWindows.countAttempt(ctx.db, limit);
    if (window.attempts > limit.max) {
      retryAfter = Math.max(retryAfter, window.retryAfterSeconds);
      ctx.observer.throttled(limit.scope);
    }
  }
  if (retryAfter > 0) throw new AppError('TOO_MANY_REQUESTS', message, { retryAfter });
}
