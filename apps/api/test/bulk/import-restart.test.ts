import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestDatabase } from '@music/db/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../src/server';
import { createClient, TEST_SECRET, testEnv, uniqueEmail } from '../support/harness';
import { importFile, waitForImport } from '../support/imports';

/**
 * An import survives its instance: the instance running it is killed mid-file, another takes it
 * up once the killed one's slice expires, from the last batch applied, and every record is
 * applied once (the records have no isrc or externalId: one applied twice would be a second
 * song). Needs a database two processes share: a PostgreSQL server.
 */

const API_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BUNDLE = path.join(API_DIR, 'dist/server.mjs');
const RECORDS = 6_000;

describe.skipIf(!process.env.TEST_DATABASE_URL)('an import whose instance is killed', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'music-import-'));
  beforeAll(() => {
    if (!existsSync(BUNDLE))
      execFileSync('pnpm', ['--filter', '@music/api', 'build'], { cwd: API_DIR, timeout: 45_000 });
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('is finished by another instance, each record applied once', async () => {
    const database = await createTestDatabase();
    const child = spawn(process.execPath, [BUNDLE], {
      cwd: API_DIR,
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'test',
        PORT: '0',
        DATA_DIR: dataDir,
        JWT_SECRET: TEST_SECRET,
        DATABASE_URL: database.url!,
        DATABASE_DIRECT_URL: database.directUrl!,
        DATABASE_POOLER: database.pooler,
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let survivor: Awaited<ReturnType<typeof startServer>> | undefined;
    try {
      let out = '';
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const line = out.split('\n').find((l) => l.includes('"api listening"'));
          if (line) resolve((JSON.parse(line) as { url: string }).url);
        });
        child.once('exit', () => reject(new Error(`exited early: ${out}`)));
      });
      const doomed = createClient(`${url}/v1`);
      const email = uniqueEmail('admin');
      const made = await doomed.request('POST', '/users', {
        body: { username: 'Importer', email, password: 'pw-12345678' },
      });
      await database.db.updateTable('users').set({ role: 'admin' }).where('id', '=', made.body.id).execute();
      const login = await doomed.request('POST', '/auth/login', { body: { email, password: 'pw-12345678' } });
      const admin = { token: login.body.accessToken as string };
      const file = Array.from({ length: RECORDS }, (_, n) =>
        JSON.stringify({ title: `Restart ${n}`, duration: 60 + (n % 600), artists: [`Band ${n % 50}`] }),
      ).join('\n');
      const id = await importFile(doomed, admin as never, file, 'application/x-ndjson');

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
      child.kill('SIGKILL');
      survivor = await startServer(testEnv(), { database });
      const state = await waitForImport(createClient(`${survivor.url}/v1`), admin as never, id, 150_000);
      expect(state).toMatchObject({
        status: 'succeeded',
        counts: { read: RECORDS, created: RECORDS, updated: 0, unchanged: 0, failed: 0 },
      });
      const { rows } = await sql<{ songs: number; artists: number }>`select
        (select count(*)::int from songs where title like 'Restart %') as songs,
        (select count(*)::int from artists where name like 'Band %') as artists`.execute(database.db);
      expect(rows[0]).toEqual({ songs: RECORDS, artists: 50 });
    } finally {
      child.kill('SIGKILL');
      await survivor?.close({ graceMs: 1_000 });
      await database.close();
    }
  }, 240_000);
});
