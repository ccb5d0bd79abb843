import { readFile } from 'node:fs/promises';
import { migrations } from '../src/migrations';

/**
 * What the global setup (global-setup.ts) hands every test file: where the run's one migrated
 * database is, and which migrations it holds.
 */
export type TestSnapshot =
  | {
      kind: 'embedded';
      /** A `dumpDataDir` of a migrated embedded database. */
      migratedFile: string;
      /** A `dumpDataDir` of a fresh, empty one (for the migration tests). */
      emptyFile: string;
      migrations: string[];
    }
  | {
      kind: 'postgres';
      /** A migrated database on the direct server, copied with `create database … template`. */
      template: string;
      migrations: string[];
    };

export const SNAPSHOT_KEY = 'musicTestDatabaseSnapshot';

declare module 'vitest' {
  export interface ProvidedContext {
    musicTestDatabaseSnapshot: TestSnapshot | undefined;
  }
}

/** Every migration of this code, in order: what a snapshot must hold to stand for a migrated database. */
export function migrationNames(): string[] {
  return Object.keys(migrations);
}

/**
 * The run's snapshot of the kind asked for, or undefined when there is none to trust: outside
 * vitest (scripts use createTestDatabase too), under a config without the global setup, or when
 * the migrations changed since it was made (a new one in watch mode): the caller then migrates
 * a fresh database, so no test ever runs on an old schema.
 */
export async function providedSnapshot<K extends TestSnapshot['kind']>(
  kind: K,
): Promise<Extract<TestSnapshot, { kind: K }> | undefined> {
  if (!process.env.VITEST) return undefined;
  const { inject } = await import('vitest');
  const snapshot = inject(SNAPSHOT_KEY);
  if (snapshot?.kind !== kind) return undefined;
  if (snapshot.migrations.join('\n') !== migrationNames().join('\n')) return undefined;
  return snapshot as Extract<TestSnapshot, { kind: K }>;
}

const dumps = new Map<string, Promise<Blob>>();

/** A dump's bytes, read once per worker (each database loads its own copy from them). */
export function readDump(file: string): Promise<Blob> {
  let dump = dumps.get(file);
  if (!dump) {
    dump = readFile(file).then((bytes) => new Blob([bytes]));
    dumps.set(file, dump);
  }
  return dump;
}
