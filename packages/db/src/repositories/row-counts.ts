import type { Db, RowCountsTable } from '../schema';
import { runSql } from '../sql';

/** The exact number of rows in a table, kept by triggers (see the row-counts migration). */
export async function countRows(db: Db, table: RowCountsTable['table_name']): Promise<number> {
  const { rows } = await runSql<{ total: string | number }>(
    db,
    'select total from row_counts where table_name = $1',
    [table],
  );
  return Number(rows[0]?.total ?? 0);
}
