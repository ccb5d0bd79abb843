import { sql } from 'kysely';
import type { Db } from '../schema';
import { statement } from '../sql';

/** Requests one instance counted for a caller in a window since it last reported them. */
export interface BudgetDelta {
  caller: string;
  windowStart: Date;
  delta: number;
}

/** A caller's count in a window, summed over every instance, as of the statement. */
export interface BudgetTotal {
  caller: string;
  windowStart: Date;
  count: number;
}

/**
 * Adds each delta to its caller's window (creating it) and answers the new totals, plus the
 * database's clock (instances place their windows on it, so they agree on where a minute starts
 * whatever their own clocks say). One statement for the whole batch, each row updated in place
 * (`count = count + delta`, atomic per row), rows locked in one order (caller, window) so two
 * instances adding overlapping batches cannot deadlock. The batch travels as one JSON parameter:
 * a plain text value every driver and pooler passes as is. At most one delta per caller and
 * window in a batch (a row cannot be updated twice by one statement).
 */
export async function addToBudgets(
  db: Db,
  deltas: readonly BudgetDelta[],
): Promise<{ totals: BudgetTotal[]; databaseNow: Date | undefined }> {
  if (deltas.length === 0) return { totals: [], databaseNow: undefined };
  const rows = JSON.stringify(
    deltas.map((d) => ({ caller: d.caller, window_start: d.windowStart.toISOString(), delta: d.delta })),
  );
  const result = await addStatement.run(db, { rows });
  return {
    totals: result.rows.map((r) => ({
      caller: r.caller,
      windowStart: new Date(r.window_start),
      count: Number(r.count),
    })),
    databaseNow: result.rows[0] ? new Date(result.rows[0].database_now) : undefined,
  };
}

interface DeltaRow {
  caller: string;
  window_start: Date;
  delta: number;
}

const addStatement = statement((db, p: { rows: string }) =>
  db
    .insertInto('request_budgets')
    .columns(['caller', 'window_start', 'count'])
    .expression(
      db
        .selectFrom(
          sql<DeltaRow>`jsonb_to_recordset(${p.rows}::jsonb)`.as<'d'>(
            sql`d(caller text, window_start timestamptz, delta integer)`,
          ),
        )
        .select(['d.caller', 'd.window_start', 'd.delta'])
        .orderBy('d.caller')
        .orderBy('d.window_start'),
    )
    .onConflict((oc) =>
      oc
        .columns(['caller', 'window_start'])
        .doUpdateSet((eb) => ({ count: eb('request_budgets.count', '+', eb.ref('excluded.count')) })),
    )
    .returning(['caller', 'window_start', 'count', sql<Date>`now()`.as('database_now')]),
);

/**
 * The callers whose count in a window reached `atLeast`: every instance asks each sync, so one
 * that never served a caller still refuses it once the others spent its budget. A range of the
 * (window_start, count) index: over-budget callers are few.
 */
export async function findOverBudget(
  db: Db,
  args: { windowStart: Date; atLeast: number },
): Promise<Array<{ caller: string; count: number }>> {
  const { rows } = await overStatement.run(db, {
    windowStart: args.windowStart.toISOString(),
    atLeast: args.atLeast,
  });
  return rows;
}

const overStatement = statement((db, p: { windowStart: string; atLeast: number }) =>
  db
    .selectFrom('request_budgets')
    .select(['caller', 'count'])
    .where('window_start', '=', sql<Date>`${p.windowStart}::timestamptz`)
    .where('count', '>=', p.atLeast),
);
