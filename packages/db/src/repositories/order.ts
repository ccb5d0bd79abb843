import { type RawBuilder, sql } from 'kysely';

/** One key of a list's order: a column of the listed rows and its direction. */
export interface OrderKey<Column extends string> {
  column: Column;
  descending: boolean;
}

/** An `order by` term as Kysely's `orderBy(expression, direction)` takes it. */
export type OrderTerm = readonly [RawBuilder<unknown>, 'asc' | 'desc'];

/**
 * The `order by` terms of a list: the keys asked for (`fallback` when none), then the id, so
 * the order is total and consecutive pages neither overlap nor skip. NULLs follow PostgreSQL's
 * default (greater than any value: last ascending, first descending), which is also the order
 * a plain b-tree index serves. Columns come from a closed list (the API validates `sort`),
 * never from raw input; `table` is the name the rows have in the query (a table or a CTE).
 */
export function orderTerms<Column extends string>(
  table: string,
  keys: readonly OrderKey<Column>[] | undefined,
  fallback: readonly OrderKey<Column>[],
  idRef = `${table}.id`,
): OrderTerm[] {
  const effective = keys && keys.length > 0 ? keys : fallback;
  return [
    ...effective.map(
      (key): OrderTerm => [sql.ref(`${table}.${key.column}`), key.descending ? 'desc' : 'asc'],
    ),
    [sql.ref(idRef), 'asc'],
  ];
}

/** The columns an order reads (`fallback` when no keys), each once: what a CTE must carry. */
export function orderColumns<Column extends string>(
  keys: readonly OrderKey<Column>[] | undefined,
  fallback: readonly OrderKey<Column>[],
): Column[] {
  const effective = keys && keys.length > 0 ? keys : fallback;
  return [...new Set(effective.map((key) => key.column))];
}

/**
 * A position in a list for keyset paging: the sort-key values of the last row of a page (as
 * text, `null` for a NULL) and its id. The next page holds the rows after it in the list's
 * order, whatever was inserted or deleted meanwhile: no row is skipped or repeated.
 */
export interface Keyset {
  values: readonly (string | null)[];
  id: string;
}

/** A page window: by offset (page mode) or after a position (cursor mode; `null`: the first page). */
export type ListWindow = { limit: number; offset: number } | { limit: number; after: Keyset | null };

export const isKeysetWindow = (window: ListWindow): window is { limit: number; after: Keyset | null } =>
  'after' in window;

/** How a sort column's value is written in a keyset, and read back into its type. */
export type KeyKind = 'text' | 'int' | 'time';

const KEY_KINDS: Readonly<Record<string, KeyKind>> = {
  title: 'text',
  album: 'text',
  name: 'text',
  username: 'text',
  email: 'text',
  duration: 'int',
  release_year: 'int',
  position: 'int',
  created_at: 'time',
  rank: 'int',
  popularity: 'int',
};

/** The kinds of the values of an order's keyset (`fallback` when no keys), in order. */
export function keyKinds(columns: readonly string[]): KeyKind[] {
  return columns.map((column) => {
    const kind = KEY_KINDS[column];
    if (kind === undefined) throw new Error(`No keyset kind for column ${column}`);
    return kind;
  });
}

const CASTS: Record<KeyKind, string> = { text: 'text', int: 'integer', time: 'timestamptz' };

/**
 * A sort column's value as a keyset holds it: text; a time in UTC with its microseconds (a JS
 * Date would drop them, and the next page would then repeat or skip rows of the same millisecond).
 */
function keyText(ref: string, kind: KeyKind): RawBuilder<string | null> {
  return kind === 'time'
    ? sql<string | null>`to_char(${sql.ref(ref)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`
    : sql<string | null>`${sql.ref(ref)}::text`;
}

/** The columns a keyset page selects besides its rows: each sort key's value as `k0`, `k1`… */
export function keysetSelections<Column extends string>(
  table: string,
  keys: readonly OrderKey<Column>[] | undefined,
  fallback: readonly OrderKey<Column>[],
) {
  const columns = orderColumnsInOrder(keys, fallback);
  const kinds = keyKinds(columns);
  return columns.map((column, index) => keyText(`${table}.${column}`, kinds[index]!).as(`k${index}`));
}

/** The order's columns as its terms list them (a repeated column is refused by the API's `sort`). */
function orderColumnsInOrder<Column extends string>(
  keys: readonly OrderKey<Column>[] | undefined,
  fallback: readonly OrderKey<Column>[],
): Column[] {
  return (keys && keys.length > 0 ? keys : fallback).map((key) => key.column);
}

/**
 * The rows after `after` in the order `orderTerms(table, keys, fallback)` gives (`idRef`: the
 * column that breaks ties, `table.id` by default): `(k1 after v1) or (k1 = v1 and k2 after
 * v2) or …`, written out so each key keeps its own direction and NULLs sort as PostgreSQL sorts
 * them (greater than any value: last ascending, first descending). The values were checked
 * against their kinds by the caller; each is cast to its column's type here.
 */
export function afterKeyset<Column extends string>(
  table: string,
  keys: readonly OrderKey<Column>[] | undefined,
  fallback: readonly OrderKey<Column>[],
  after: Keyset,
  idRef = `${table}.id`,
): RawBuilder<boolean> {
  const effective = keys && keys.length > 0 ? keys : fallback;
  const kinds = keyKinds(effective.map((key) => key.column));
  const terms = effective.map((key, index) => {
    const ref = sql.ref(`${table}.${key.column}`);
    const value = after.values[index] ?? null;
    if (value === null) {
      // NULL is the greatest value: after it come only NULLs (ascending) or only non-NULLs (descending).
      return {
        equal: sql<boolean>`${ref} is null`,
        beyond: key.descending ? sql<boolean>`${ref} is not null` : sql<boolean>`false`,
      };
    }
    const typed = sql`cast(${value} as ${sql.raw(CASTS[kinds[index]!])})`;
    return {
      equal: sql<boolean>`${ref} = ${typed}`,
      beyond: key.descending
        ? sql<boolean>`${ref} < ${typed}`
        : sql<boolean>`(${ref} > ${typed} or ${ref} is null)`,
    };
  });
  terms.push({ equal: sql<boolean>`false`, beyond: sql<boolean>`${sql.ref(idRef)} > ${after.id}::uuid` });
  const alternatives = terms.map(
    (term, index) =>
      sql<boolean>`(${sql.join([...terms.slice(0, index).map((t) => t.equal), term.beyond], sql` and `)})`,
  );
  const rows = sql<boolean>`(${sql.join(alternatives, sql` or `)})`;
  const bound = startBound(table, effective[0], after.values[0] ?? null, kinds[0]);
  return bound ? sql<boolean>`(${bound} and ${rows})` : rows;
}

/** Sort columns that are never NULL, in every table that sorts by them. */
const NEVER_NULL = new Set(['title', 'name', 'username', 'email', 'created_at', 'position']);

/**
 * A plain range condition on the first key (`k1 >= v1`, `<=` descending), implied by the
 * alternatives and so changing no answer: an index on the order's columns can start its scan
 * there, where the alternatives alone (an OR) cannot bound it and a page deep in the list walked
 * every row before it (measured: a cursor page in the middle of 100,000 songs read as many
 * buffers as the offset page there, 600). None when it would not hold: after a NULL, or
 * ascending on a column that may be NULL (NULLs come after every value).
 */
function startBound<Column extends string>(
  table: string,
  key: OrderKey<Column> | undefined,
  value: string | null,
  kind: KeyKind | undefined,
): RawBuilder<boolean> | undefined {
  if (!key || value === null || kind === undefined) return undefined;
  if (!key.descending && !NEVER_NULL.has(key.column)) return undefined;
  const ref = sql.ref(`${table}.${key.column}`);
  const typed = sql`cast(${value} as ${sql.raw(CASTS[kind])})`;
  return key.descending ? sql<boolean>`${ref} <= ${typed}` : sql<boolean>`${ref} >= ${typed}`;
}

/**
 * A keyset page's rows (fetched `limit + 1`, with `keysetSelections`' columns) cut to the page,
 * and the position after its last row when more follow (`null` at the end).
 */
export function keysetPage<Row extends { id: string }>(
  rows: readonly (Row & Record<string, unknown>)[],
  limit: number,
  width: number,
): { rows: Row[]; next: Keyset | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  if (rows.length <= limit || last === undefined) return { rows: page, next: null };
  const values = Array.from({ length: width }, (_, index) => (last[`k${index}`] as string | null) ?? null);
  return { rows: page, next: { values, id: last.id } };
}

/** What keyset paging needs of a list's select query (Kysely's select query builder has it). */
export interface PageableQuery<Query> {
  where(expression: RawBuilder<boolean>): Query;
  orderBy(expression: RawBuilder<unknown>, direction: 'asc' | 'desc'): Query;
  limit(limit: number): Query;
}

/**
 * A cursor page of a list's query, for `$call`: the rows after `after` (all from the first when
 * null) in the list's order, and one more than `limit` so `keysetPage` can tell whether more
 * follow. The query selects `keysetSelections` of the same order itself.
 */
export function pageAfter<Column extends string>(
  table: string,
  keys: readonly OrderKey<Column>[] | undefined,
  fallback: readonly OrderKey<Column>[],
  window: { after: Keyset | null; limit: number },
  idRef = `${table}.id`,
) {
  return <Query extends PageableQuery<Query>>(query: Query): Query => {
    let page = window.after ? query.where(afterKeyset(table, keys, fallback, window.after, idRef)) : query;
    for (const [ref, direction] of orderTerms(table, keys, fallback, idRef))
      page = page.orderBy(ref, direction);
    return page.limit(window.limit + 1);
  };
}
