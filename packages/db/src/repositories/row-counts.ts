import type { Db, RowCountsTable } from '../schema';
import { statement } from '../sql';

const rowCountStatement = statement((db, p: { table: RowCountsTable['table_name'] }) =>
  db.selectFrom('row_counts').select('total').where('table_name', '=', p.table),
);

/** The exact number of rows in a table, kept by triggers (see the row-counts migration). */
export async function countRows(db: Db, table: RowCountsTable['table_name']): Promise<number> {
  const { rows } = await rowCountStatement.run(db, { table });
  return Number(rows[0]?.total ?? 0);
}
