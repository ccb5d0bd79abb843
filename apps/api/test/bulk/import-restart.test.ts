import { createTestDatabase } from '@music/db/testing';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../src/server';
import { ensureBundle, startChildApi } from '../support/child-api';
import { createClient, testEnv } from '../support/harness';
import { importFile, waitForImport } from '../support/imports';

/**
 * An import survives its instance: the instance running it is killed mid-file, another takes it
 * up once the killed one's slice expires, from the last batch applied, and every record is
 * applied once (the records have no isrc or externalId: one applied twice would be a second
 * song). Needs a database two processes share: a PostgreSQL server.
 */

const RECORDS = 6_000;

describe.skipIf(!process.env.TEST_DATABASE_URL)('an import whose instance is killed', () => {
  beforeAll(ensureBundle);

  it('is finished by another instance, each record applied once', async () => {
    const database = await createTestDatabase();
    const doomed = await startChildApi(database);
    let survivor: Awaited<ReturnType<typeof startServer>> | undefined;
    try {
      const { admin } = doomed;
      const file = Array.from({ length: RECORDS }, (_, n) =>
        JSON.stringify({ title: `Restart ${n}`, duration: 60 + (n % 600), artists: [`Band ${n % 50}`] }),
      ).join('\n');
      const id = await importFile(doomed.client, admin, file, 'application/x-ndjson');

      // Killed once some batches are applied, and well before the end.
      const deadline = Date.now() + 60_000;
      for (;;) {
        const { rows } = await sql<{
          read: number;
          status: string;
        }>`select read, status from imports where id = ${id}`.execute(database.db);
        if ((rows[0]?.read ?? 0) >= 500) {
          expect(rows[0]!.read).toBeLessThan(RECORDS);
          break;
        }
        if (Date.now() > deadline) throw new Error('the import never started');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      doomed.kill();
      survivor = await startServer(testEnv(), { database });
      const state = await waitForImport(createClient(`${survivor.url}/v1`), admin, id, 150_000);
      expect(state).toMatchObject({
        status: 'succeeded',
        counts: { read: RECORDS, created: RECORDS, updated: 0, unchanged: 0, failed: 0 },
      });
      const { rows } = await sql<{ songs: number; artists: number }>`select
        (select count(*)::int from songs where title like 'Restart %') as songs,
        (select count(*)::int from artists where name like 'Band %') as artists`.execute(database.db);
      expect(rows[0]).toEqual({ songs: RECORDS, artists: 50 });
    } finally {
      doomed.kill();
      await survivor?.close({ graceMs: 1_000 });
      await database.close();
    }
  }, 240_000);
});
