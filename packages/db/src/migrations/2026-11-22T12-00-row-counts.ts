import { type Kysely, sql } from 'kysely';

// Frozen: never edit a migration once it has landed; add a new one.

const COUNTED = ['users', 'artists', 'songs', 'playlists'];

/**
 * Exact row counts kept by statement-level triggers, so an unfiltered list's `total` is one
 * primary-key read instead of a `count(*)` over the whole table (which capped a naive songs
 * list at a few hundred requests per second on 100k rows). Transactional: a rolled-back
 * insert never counted. The cost is one row update per writing statement.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('row_counts')
    .addColumn('table_name', 'text', (c) => c.primaryKey())
    .addColumn('total', 'bigint', (c) => c.notNull())
    .execute();
  await sql`
    create function maintain_row_count() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        update row_counts set total = total + (select count(*) from changed_rows) where table_name = tg_table_name;
      else
        update row_counts set total = total - (select count(*) from changed_rows) where table_name = tg_table_name;
      end if;
      return null;
    end $$`.execute(db);
  for (const table of COUNTED) {
    await sql`insert into row_counts (table_name, total) select ${table}, count(*) from ${sql.table(table)}`.execute(
      db,
    );
    await sql`create trigger ${sql.ref(`${table}_count_insert`)} after insert on ${sql.table(table)}
      referencing new table as changed_rows for each statement execute function maintain_row_count()`.execute(
      db,
    );
    await sql`create trigger ${sql.ref(`${table}_count_delete`)} after delete on ${sql.table(table)}
      referencing old table as changed_rows for each statement execute function maintain_row_count()`.execute(
      db,
    );
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of COUNTED) {
    await sql`drop trigger ${sql.ref(`${table}_count_insert`)} on ${sql.table(table)}`.execute(db);
    await sql`drop trigger ${sql.ref(`${table}_count_delete`)} on ${sql.table(table)}`.execute(db);
  }
  await sql`drop function maintain_row_count()`.execute(db);
  await db.schema.dropTable('row_counts').execute();
}
