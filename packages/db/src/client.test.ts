import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing/index';
import { connectionBudget, createDatabase } from './client';
import { mayWrite } from './driver/prepared';
import { isDatabaseUnavailable, isUniqueViolation } from './errors';
import { isUuid, uuidv7 } from './ids';
import { insertUser } from './repositories/users';
import { runSql } from './sql';

const database: TestDatabase = await createTestDatabase();
afterAll(() => database.close());

describe(`database client (${process.env.TEST_DATABASE_URL ? 'PostgreSQL server' : 'embedded'})`, () => {
  it('applies every migration and has pg_trgm', async () => {
    const { rows } = await sql<{ extname: string }>`select extname from pg_extension`.execute(database.db);
    expect(rows.map((r) => r.extname)).toContain('pg_trgm');
    const tables = await database.db.introspection.getTables();
    expect(tables.map((t) => t.name).sort()).toEqual(
      expect.arrayContaining([
        'users',
        'sessions',
        'refresh_tokens',
        'artists',
        'songs',
        'playlists',
        'playlist_songs',
      ]),
    );
  });

  it('reports a duplicate email as a unique violation of users_email_key', async () => {
    const user = {
      username: 'a',
      email: `dup-${uuidv7()}@example.com`,
      password_hash: 'x',
      role: 'user' as const,
    };
    await insertUser(database.db, { id: uuidv7(), ...user });
    const error = await insertUser(database.db, { id: uuidv7(), ...user }).catch((e: unknown) => e);
    expect(isUniqueViolation(error, 'users_email_key')).toBe(true);
  });

  it('rolls a failed transaction back completely', async () => {
    const email = `tx-${uuidv7()}@example.com`;
    await expect(
      database.db.transaction().execute(async (trx) => {
        await insertUser(trx, { id: uuidv7(), username: 'tx', email, password_hash: 'x', role: 'user' });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    const found = await database.db.selectFrom('users').select('id').where('email', '=', email).execute();
    expect(found).toEqual([]);
  });

  it('serialises concurrent transactions without interleaving them', async () => {
    const ids = Array.from({ length: 5 }, () => uuidv7());
    await Promise.all(
      ids.map((id, i) =>
        database.db.transaction().execute(async (trx) => {
          await insertUser(trx, {
            id,
            username: `c${i}`,
            email: `c-${id}@example.com`,
            password_hash: 'x',
            role: 'user',
          });
        }),
      ),
    );
    const found = await database.db.selectFrom('users').select('id').where('id', 'in', ids).execute();
    expect(found).toHaveLength(5);
  });
});

describe('statement routing', () => {
  it('tells statements that may change data from reads', () => {
    expect(mayWrite('insert into users (id) values ($1)')).toBe(true);
    expect(mayWrite('with cleared as (delete from login_failures where email = $1) select 1')).toBe(true);
    expect(mayWrite('UPDATE songs SET title = $1')).toBe(true);
    expect(mayWrite('select id, updated_at from songs where id = $1')).toBe(false);
    expect(mayWrite('select "deleted", "inserted_at" from t')).toBe(false);
  });

  it('runs a written-out statement on the transaction it is given, and outside it on its own', async () => {
    const id = uuidv7();
    const byId = 'select id from users where id = $1';
    const seen = await database.db.transaction().execute(async (trx) => {
      await insertUser(trx, {
        id,
        username: 'raw',
        email: `raw-${id}@example.com`,
        password_hash: 'x',
        role: 'user',
      });
      const inside = await runSql<{ id: string }>(trx, byId, [id]);
      // On a server the direct path is another connection, which must not see the uncommitted row
      // (the embedded database has one session, held by the transaction until it ends).
      const outside = process.env.TEST_DATABASE_URL ? await runSql(database.db, byId, [id]) : { rows: [] };
      return { inside: inside.rows, outside: outside.rows };
    });
    expect(seen).toEqual({ inside: [{ id }], outside: [] });
    expect((await runSql<{ id: string }>(database.db, byId, [id])).rows).toEqual([{ id }]);
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    'never queues a read behind another statement that is waiting to change data',
    async () => {
      const email = `lock-${uuidv7()}@example.com`;
      const id = uuidv7();
      await insertUser(database.db, { id, username: 'lock', email, password_hash: 'x', role: 'user' });
      // An outside transaction holds the row, so the update below waits for it.
      const holder = new pg.Client({ connectionString: database.url });
      await holder.connect();
      try {
        await holder.query('begin');
        await holder.query('select 1 from users where id = $1 for update', [id]);
        const blocked = database.db
          .updateTable('users')
          .set({ username: 'changed' })
          .where('id', '=', id)
          .execute();
        // Reads sent in the same event-loop turn (which would share a pipelined client).
        const started = Date.now();
        const reads = await Promise.all(
          Array.from({ length: 8 }, () =>
            database.db.selectFrom('users').select('username').where('id', '=', id).executeTakeFirstOrThrow(),
          ),
        );
        expect(Date.now() - started).toBeLessThan(1000);
        expect(reads.map((r) => r.username)).toEqual(Array(8).fill('lock'));
        await holder.query('commit');
        await blocked;
        const after = await database.db
          .selectFrom('users')
          .select('username')
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        expect(after.username).toBe('changed');
      } finally {
        await holder.end();
      }
    },
  );
});

describe('connections', () => {
  it('shares DB_POOL_MAX out between pipelined and pooled connections, never more in total', () => {
    expect(connectionBudget(10)).toEqual({ shared: 3, pooled: 7 });
    expect(connectionBudget(2)).toEqual({ shared: 0, pooled: 2 });
    expect(connectionBudget(1)).toEqual({ shared: 0, pooled: 1 });
    for (let total = 1; total <= 200; total++) {
      const { shared, pooled } = connectionBudget(total);
      expect(shared + pooled).toBe(total);
      expect(pooled).toBeGreaterThanOrEqual(1);
    }
  });

  // Behind a pooler the server sees the pooler's connections, not ours: counted only directly.
  it.runIf(process.env.TEST_DATABASE_URL && process.env.TEST_DATABASE_POOLER !== 'transaction')(
    'opens no more than poolMax connections under concurrent reads, writes and transactions',
    async () => {
      const applicationName = `budget-${uuidv7().slice(-12)}`;
      const handle = await createDatabase({ databaseUrl: database.url, poolMax: 4, applicationName });
      let peak = 0;
      const sample = async () => {
        const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
          where application_name = ${applicationName}`.execute(database.db);
        peak = Math.max(peak, rows[0]?.n ?? 0);
      };
      try {
        const work = Array.from({ length: 40 }, (_, i) => {
          if (i % 4 === 0)
            return handle.db.transaction().execute(async (trx) => {
              await sql`select pg_sleep(0.02)`.execute(trx);
            });
          if (i % 4 === 1)
            return handle.db
              .insertInto('row_counts')
              .values({ table_name: 'users', total: '0' })
              .onConflict((oc) => oc.doNothing())
              .execute();
          return sql`select pg_sleep(0.01)`.execute(handle.db);
        });
        const sampling = (async () => {
          for (let i = 0; i < 20; i++) {
            await sample();
            await new Promise((resolve) => setTimeout(resolve, 10));
          }
        })();
        await Promise.all([...work, sampling]);
        expect(peak).toBeGreaterThan(0);
        expect(peak).toBeLessThanOrEqual(4);
      } finally {
        await handle.close();
      }
    },
  );

  it.runIf(process.env.TEST_DATABASE_URL)(
    'keeps answering when a column is added under a statement it has already run',
    async () => {
      const table = `stale_${uuidv7().replaceAll('-', '').slice(-12)}`;
      await sql`create table ${sql.table(table)} (id int primary key)`.execute(database.db);
      await sql`insert into ${sql.table(table)} values (1)`.execute(database.db);
      // `*` on purpose: the result type changes when the column is added.
      const text = `select * from ${table} where id = $1`;
      for (let i = 0; i < 6; i++) expect((await runSql(database.db, text, [1])).rows).toEqual([{ id: 1 }]);
      await sql`alter table ${sql.table(table)} add column note text`.execute(database.db);
      for (let i = 0; i < 6; i++) {
        expect((await runSql(database.db, text, [1])).rows).toEqual([{ id: 1, note: null }]);
      }
      await sql`drop table ${sql.table(table)}`.execute(database.db);
    },
  );
});

describe('prepared statements in transactions', () => {
  it.runIf(process.env.TEST_DATABASE_URL)(
    'a transaction whose prepared plan went stale fails at most once, as unavailable (503), then works',
    async () => {
      const table = `stale_tx_${uuidv7().replaceAll('-', '').slice(-12)}`;
      await sql`create table ${sql.table(table)} (id int primary key)`.execute(database.db);
      await sql`insert into ${sql.table(table)} values (1)`.execute(database.db);
      const text = `select * from ${table} where id = $1`;
      const read = () =>
        database.db.transaction().execute(async (trx) => (await runSql(trx, text, [1])).rows);
      for (let i = 0; i < 6; i++) expect(await read()).toEqual([{ id: 1 }]);
      await sql`alter table ${sql.table(table)} add column note text`.execute(database.db);
      const failures: unknown[] = [];
      let rows: unknown[] | undefined;
      for (let attempt = 0; attempt < 3 && !rows; attempt++) {
        rows = await read().catch((error: unknown) => {
          failures.push(error);
          return undefined;
        });
      }
      expect(rows).toEqual([{ id: 1, note: null }]);
      expect(failures.length).toBeLessThanOrEqual(database.pooler === 'transaction' ? 0 : 1);
      for (const error of failures) expect(isDatabaseUnavailable(error)).toBe(true);
      await sql`drop table ${sql.table(table)}`.execute(database.db);
    },
  );
});

describe('uuidv7', () => {
  it('makes valid, version 7, strictly increasing ids', () => {
    const ids = Array.from({ length: 2000 }, () => uuidv7());
    for (const id of ids) {
      expect(isUuid(id)).toBe(true);
      expect(id[14]).toBe('7');
      expect('89ab').toContain(id[19]);
    }
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('tells UUIDs from everything else', () => {
    expect(isUuid('not-a-uuid')).toBe(false);
    expect(isUuid('0190a000-0000-7000-8000-00000000000g')).toBe(false);
    expect(isUuid(42)).toBe(false);
  });
});
