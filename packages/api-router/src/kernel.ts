import { isUuid } from '@music/db';
import type { Actor, Context } from './context';
import { AppError, validationError } from './errors';
import { pageWindow } from './schemas';

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

/**
 * Body references that must name existing records: each unknown one is a 422 on `field.N`
 * (`field` alone for a single id). Returns the ids lower-cased (UUIDs are case-insensitive).
 */
export async function assertIdsExist(
  ids: readonly string[],
  findExisting: (ids: readonly string[]) => Promise<Set<string>>,
  field: string,
  what: string,
  single = false,
): Promise<string[]> {
  const lowered = ids.map((id) => id.toLowerCase());
  const existing = await findExisting(lowered);
  const missing = lowered.flatMap((id, index) =>
    existing.has(id)
      ? []
      : [{ field: single ? field : `${field}.${index}`, message: `No ${what} with this id` }],
  );
  if (missing.length > 0) throw validationError(missing);
  return lowered;
}

/** One page of a list, as every list answers: `{ data, pagination: { page, limit, total } }`. */
export async function page<Row, Item>(
  input: { page: number; limit: number },
  fetch: (window: { limit: number; offset: number }) => Promise<{ rows: Row[]; total: number }>,
  toItem: (row: Row) => Item,
) {
  const { rows, total } = await fetch(pageWindow(input));
  return { data: rows.map(toItem), pagination: { page: input.page, limit: input.limit, total } };
}
