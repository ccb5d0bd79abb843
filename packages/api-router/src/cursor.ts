import { hash } from 'node:crypto';
import { isUuid, type KeyKind, type Keyset, keyKinds, type ListWindow, type OrderKey } from '@music/db';
import { AppError, type FieldError } from './errors';

/**
 * Cursor mode of a list: `cursor=` (empty) asks for the first page, and each page's
 * `pagination.nextCursor` names the next one (`null` at the end). A cursor is opaque to clients:
 * base64url of `[order, sort-key values, id]` of the page's last row, then `.` and a check value
 * (a hash of the list's name and that JSON). The check value is no secret: it tells a cursor
 * that was cut, mistyped or edited, or made for another list or order, from a good one, so
 * such a cursor is a clear 422 on `cursor`; the values are still checked against their kinds
 * before they reach a query. Pages are read by keyset (the rows after that position in the
 * list's order), so rows inserted or deleted between pages make none skipped or repeated.
 */

/**
 * A 422 on a query parameter: well-formed for the query string, but unusable (cursor, expand).
 * Raised by the service, not the input schema, so the REST edge leaves it a 422 (not a 400).
 */
export function queryFieldError(field: string, message: string): AppError {
  const errors: FieldError[] = [{ field, message }];
  return new AppError('VALIDATION_FAILED', 'The request failed validation', { errors });
}

const badCursor = (why: string) => queryFieldError('cursor', `Not a cursor of this list: ${why}`);

/** The order's signature: the columns and directions it sorts by (then id). */
function signature(order: readonly OrderKey<string>[]): string {
  return order.map((key) => `${key.descending ? '-' : ''}${key.column}`).join(',');
}

function checkOf(list: string, json: string): string {
  return hash('sha256', `${list}\n${json}`, 'base64url').slice(0, 16);
}

export function encodeCursor(list: string, order: readonly OrderKey<string>[], keyset: Keyset): string {
  const json = JSON.stringify([signature(order), keyset.values, keyset.id]);
  return `${Buffer.from(json, 'utf8').toString('base64url')}.${checkOf(list, json)}`;
}

const TOKEN = /^[A-Za-z0-9_-]{1,4000}\.[A-Za-z0-9_-]{16}$/;
const INT = /^-?\d{1,10}$/;
const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

function fitsKind(value: unknown, kind: KeyKind): boolean {
  if (value === null) return true;
  if (typeof value !== 'string') return false;
  if (kind === 'int') return INT.test(value) && Math.abs(Number(value)) <= 2_147_483_647;
  if (kind === 'time') {
    // A real instant: 2026-02-30 matches the pattern but PostgreSQL refuses it.
    const millis = `${value.slice(0, 23)}Z`;
    return TIME.test(value) && !Number.isNaN(Date.parse(millis)) && new Date(millis).toISOString() === millis;
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: NUL cannot reach PostgreSQL.
  return value.length <= 2000 && !/\u0000/.test(value);
}

/** A cursor as a position in `order`, or a 422 on `cursor`; the empty cursor is the first page. */
export function decodeCursor(
  list: string,
  order: readonly OrderKey<string>[],
  cursor: string,
  isId: (id: string) => boolean = isUuid,
): Keyset | null {
  if (cursor === '') return null;
  if (!TOKEN.test(cursor)) throw badCursor('malformed');
  const [body, check] = cursor.split('.') as [string, string];
  const json = Buffer.from(body, 'base64url').toString('utf8');
  if (checkOf(list, json) !== check) throw badCursor('it was altered, or made for another list');
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw badCursor('malformed');
  }
  const kinds = keyKinds(order.map((key) => key.column));
  if (!Array.isArray(parsed) || parsed.length !== 3) throw badCursor('malformed');
  const [sig, values, id] = parsed as [unknown, unknown, unknown];
  if (sig !== signature(order)) throw badCursor('it was made for another `sort`');
  if (
    !Array.isArray(values) ||
    values.length !== kinds.length ||
    !values.every((v, i) => fitsKind(v, kinds[i]!))
  ) {
    throw badCursor('malformed');
  }
  if (typeof id !== 'string' || !isId(id)) throw badCursor('malformed');
  return { values: values as (string | null)[], id };
}

/** What a cursor-capable list takes: `page` or `cursor` (not both), and `limit`. */
export interface ListInput {
  page?: number | undefined;
  limit: number;
  cursor?: string | undefined;
}

/** Page mode's window, or cursor mode's position (a 422 for `page` with `cursor`, or a bad cursor). */
export function windowOf(
  input: ListInput,
  list: string,
  order: readonly OrderKey<string>[],
  isId?: (id: string) => boolean,
): ListWindow {
  if (input.cursor === undefined)
    return { limit: input.limit, offset: ((input.page ?? 1) - 1) * input.limit };
  if (input.page !== undefined) throw queryFieldError('page', 'Give `page` or `cursor`, not both');
  return { limit: input.limit, after: decodeCursor(list, order, input.cursor, isId) };
}
