import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from '@music/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oneLine } from '../../src/runtime/one-line';
import { ensureBundle, spawnBundle } from '../support/child-api';
import { TEST_SECRET } from '../support/harness';

const dataDir = mkdtempSync(path.join(tmpdir(), 'music-startup-'));

// These run the built server (CI builds before testing; a checkout may not have).
beforeAll(ensureBundle);
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Runs the built server to its exit (start-up failures and `migrate` exit by themselves). */
function run(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawnBundle(
    { NODE_ENV: 'test', PORT: '0', DATA_DIR: dataDir, JWT_SECRET: TEST_SECRET, ...env },
    args,
  );
  let [stdout, stderr] = ['', ''];
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}

describe('start-up', () => {
  it('writes an error and its causes on one line', () => {
    const driver = Object.assign(new Error('unsupported startup parameter: statement_timeout'), {
      code: '08P01',
    });
    const error = new Error('migration x failed and was rolled back', { cause: driver });
    expect(oneLine(error)).toBe(
      'migration x failed and was rolled back: unsupported startup parameter: statement_timeout (08P01)',
    );
    expect(oneLine(new AggregateError([new Error('connect ECONNREFUSED 127.0.0.1:1')]))).toBe(
      'connect ECONNREFUSED 127.0.0.1:1',
    );
    expect(oneLine(new Error('two\nlines'))).toBe('two lines');
  });

  it('prints the real cause of a failed start in one line and exits 1', async () => {
    const refused = await run([], { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' });
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toMatch(/^music-api: start-up failed: .*ECONNREFUSED/);
    const misconfigured = await run([], { TRUST_PROXY: 'everyone' });
    expect(misconfigured.code).toBe(1);
    expect(misconfigured.stderr.trim()).toMatch(
      /^music-api: start-up failed: Invalid configuration: TRUST_PROXY entry "everyone"[^\n]*$/,
    );
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('migrations as a step of their own', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase({ migrate: false });
  });
  afterAll(() => database?.close());

  it('refuses to serve an unmigrated database with MIGRATE_ON_START=false; `migrate` applies and exits', async () => {
    const env = {
      DATABASE_URL: database.url!,
      DATABASE_DIRECT_URL: database.directUrl!,
      DATABASE_POOLER: database.pooler,
      LOG_LEVEL: 'info',
    };
    const refused = await run([], { ...env, MIGRATE_ON_START: 'false' });
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toMatch(
      /^music-api: start-up failed: the database lacks \d+ migration\(s\).*pnpm migrate/,
    );

    const migrated = await run(['migrate'], env);
    expect(migrated.code, migrated.stderr).toBe(0);
    expect(migrated.stdout).toContain('"msg":"migrations applied"');
    expect(await database.checkMigrations()).toEqual({ applied: [], ahead: [] });
    const again = await run(['migrate'], env);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('"msg":"migrations: nothing to apply"');
  });
});

describe('stopping', () => {
  /** Starts the built server on the embedded database, waits until it listens, then signals it. */
  async function signalled(signal: NodeJS.Signals) {
    const dir = mkdtempSync(path.join(tmpdir(), 'music-stop-'));
    const child = spawnBundle({
      NODE_ENV: 'production',
      PORT: '0',
      DATA_DIR: dir,
      SHUTDOWN_DELAY_SECONDS: '2',
      LOG_LEVEL: 'info',
    });
    let out = '';
    const listening = new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const line = out.split('\n').find((l) => l.includes('"api listening"'));
        if (line) resolve((JSON.parse(line) as { url: string }).url);
      });
      child.once('exit', () => reject(new Error(`exited early: ${out}`)));
    });
    const url = await listening;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const started = Date.now();
    child.kill(signal);
    const readiness = await fetch(`${url}/v1/health`)
      .then((res) => res.status)
      .catch((error: unknown) => `refused: ${String((error as Error).cause ?? error)}`);
    const code = await exited;
    rmSync(dir, { recursive: true, force: true });
    return { readiness, ms: Date.now() - started, code };
  }

  it('SIGTERM: readiness 503 at once, the delay served, then exit 0; Ctrl-C (SIGINT) skips the delay', async () => {
    const term = await signalled('SIGTERM');
    expect(term.readiness).toBe(503);
    expect(term.code).toBe(0);
    expect(term.ms).toBeGreaterThanOrEqual(2_000);
    const int = await signalled('SIGINT');
    expect(int.code).toBe(0);
    expect(int.ms).toBeLessThan(1_500);
  }, 60_000);
});
