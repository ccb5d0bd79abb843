import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely } from 'kysely';
import type { TestProject } from 'vitest/node';
import { createDatabase, EMBEDDED_EXTENSIONS } from '../src/client';
import { postgresDialect } from '../src/driver/dialect';
import { PGliteDriver } from '../src/driver/pglite-dialect';
import { migrateToLatest } from '../src/migrate';
import type { Database as Schema } from '../src/schema';
import { dropStaleDatabases, testDatabaseName, testServer, withAdmin, withDatabase } from './server';
import { migrationNames, SNAPSHOT_KEY, type TestSnapshot } from './snapshot';

/**
 * Vitest global setup: migrates one database for the whole run, which every test file's
 * createTestDatabase() then copies instead of running initdb and every migration again (that
 * was most of a suite's time). Embedded: dumps of a fresh and of a migrated PGlite, in a temp
 * folder. PostgreSQL: a migrated template database on the direct server. Removed in teardown.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = testServer();
  if (server) {
    const template = testDatabaseName('template_');
    await withAdmin(server.directUrl, async (admin) => {
      await dropStaleDatabases(admin);
      await admin.query(`create database "${template}"`);
    });
    const drop = () =>
      withAdmin(server.directUrl, (admin) =>
        admin.query(`drop database if exists "${template}" with (force)`),
      );
    try {
      // Straight to the server: a pooler would keep connections to the template open, and a
      // database with any connection cannot be copied.
      const url = withDatabase(server.directUrl, template);
      const database = await createDatabase({ databaseUrl: url, directUrl: url, poolMax: 1 });
      try {
        await database.migrate();
      } finally {
        await database.close();
      }
    } catch (error) {
      await drop();
      throw error;
    }
    provide(project, { kind: 'postgres', template, migrations: migrationNames() });
    return async () => {
      await drop();
    };
  }

  const folder = await mkdtemp(path.join(tmpdir(), 'music-test-db-'));
  try {
    const client = await PGlite.create({ extensions: EMBEDDED_EXTENSIONS });
    const db = new Kysely<Schema>({ dialect: postgresDialect(() => new PGliteDriver(client)) });
    try {
      const emptyFile = path.join(folder, 'empty.tar');
      await writeFile(emptyFile, await dump(client));
      await migrateToLatest(db);
      const migratedFile = path.join(folder, 'migrated.tar');
      await writeFile(migratedFile, await dump(client));
      provide(project, { kind: 'embedded', migratedFile, emptyFile, migrations: migrationNames() });
    } finally {
      await db.destroy();
      await client.close();
    }
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    throw error;
  }
  return () => rm(folder, { recursive: true, force: true });
}

function provide(project: TestProject, snapshot: TestSnapshot): void {
  project.provide(SNAPSHOT_KEY, snapshot);
}

async function dump(client: PGlite): Promise<Uint8Array> {
  return new Uint8Array(await (await client.dumpDataDir('none')).arrayBuffer());
}
