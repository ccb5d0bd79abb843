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
): OrderTerm[] {
  const effective = keys && keys.length > 0 ? keys : fallback;
  return [
    ...effective.map(
      (key): OrderTerm => [sql.ref(`${table}.${key.column}`), key.descending ? 'desc' : 'asc'],
    ),
    [sql.ref(`${table}.id`), 'asc'],
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
