import { type ChildProcess, type ChildProcessByStdio, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { TestDatabase } from '@music/db/testing';
import { type Client, createClient, TEST_SECRET, uniqueEmail } from './harness';

const API_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BUNDLE = path.join(API_DIR, 'dist/server.mjs');

/** The built API (`dist/server.mjs`) in a process of its own, with only PATH and `env` set. */
export function spawnBundle(
  env: Record<string, string>,
  args: string[] = [],
): ChildProcessByStdio<null, Readable, Readable> {
  return spawn(process.execPath, [BUNDLE, ...args], {
    cwd: API_DIR,
    env: { PATH: process.env.PATH ?? '', ...env } as unknown as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** A test database's server as the bundle's settings (none: the embedded database). */
export function databaseEnv(database: TestDatabase | undefined): Record<string, string> {
  if (!database?.url) return {};
  return {
    DATABASE_URL: database.url,
    DATABASE_DIRECT_URL: database.directUrl!,
    DATABASE_POOLER: database.pooler,
  };
}

/** Builds the API bundle if this checkout has none (CI builds before testing). */
export function ensureBundle(): void {
  if (!existsSync(BUNDLE))
    execFileSync('pnpm', ['--filter', '@music/api', 'build'], { cwd: API_DIR, timeout: 45_000 });
}

/**
 * The built API in a process of its own on a test database's server (an instance that can be
 * killed, SIGKILL, while another carries on), and an admin signed in on it.
 */
export async function startChildApi(
  database: TestDatabase,
  env: Record<string, string> = {},
): Promise<{ client: Client; admin: { token: string }; child: ChildProcess; kill(): void }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'music-child-'));
  const child = spawnBundle({
    NODE_ENV: 'test',
    PORT: '0',
    DATA_DIR: dataDir,
    JWT_SECRET: TEST_SECRET,
    ...databaseEnv(database),
    LOG_LEVEL: 'info',
    ...env,
  });
  const kill = () => {
    child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    let out = '';
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const line = out.split('\n').find((l) => l.includes('"api listening"'));
        if (line) resolve((JSON.parse(line) as { url: string }).url);
      });
      child.once('exit', () => reject(new Error(`exited early: ${out} ${err}`)));
    });
    const client = createClient(`${url}/v1`);
    const email = uniqueEmail('admin');
    const made = await client.request('POST', '/users', {
      body: { username: 'Child admin', email, password: 'pw-12345678' },
    });
    await database.db.updateTable('users').set({ role: 'admin' }).where('id', '=', made.body.id).execute();
    const login = await client.request('POST', '/auth/login', { body: { email, password: 'pw-12345678' } });
    return { client, admin: { token: login.body.accessToken as string }, child, kill };
  } catch (error) {
    kill();
    throw error;
  }
}
