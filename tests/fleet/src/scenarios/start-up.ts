import path from 'node:path';
import { expect } from 'vitest';
import { API_BUNDLE } from '../instances';
import { sleep, startChild } from '../processes';
import { ADMIN, type Fleet } from './fleet';

export async function migratesOnce(fleet: Fleet): Promise<void> {
  const { rows } = await fleet.onDatabase((db) =>
    db.query<{ n: number }>('select name, count(*)::int as n from kysely_migration group by name'),
  );
  expect(rows.length).toBeGreaterThan(5);
  expect(rows.every((r) => r.n === 1)).toBe(true);
  for (const api of fleet.apis) {
    expect(api.child().process.exitCode).toBeNull();
    expect((await fetch(`${api.url}/v1/health`)).status).toBe(200);
  }
  // Exactly one bootstrap admin, though all three ensured it at once.
  const admin = await fleet.call('POST', '/auth/login', { body: ADMIN });
  expect(admin.status).toBe(200);
  expect(admin.body.user.role).toBe('admin');
}

export async function refusesPoolerWithoutSetting(fleet: Fleet): Promise<void> {
  const env: Record<string, string> = {
    ...fleet.apiEnv(),
    DATABASE_POOLER: 'none',
    PORT: '0',
    HOST: '127.0.0.1',
  };
  // No bootstrap admin either: nothing but the start-up's own check touches DATABASE_URL.
  delete env.ADMIN_EMAIL;
  delete env.ADMIN_PASSWORD;
  const child = startChild(process.execPath, [API_BUNDLE], {
    cwd: path.dirname(API_BUNDLE),
    env: { PATH: process.env.PATH ?? '', ...env },
  });
  const exit = await Promise.race([child.exited, sleep(30_000).then(() => ({ code: -1, signal: null }))]);
  await child.stop('SIGKILL');
  expect(exit.code).toBe(1);
  const lines = child
    .output()
    .trim()
    .split('\n')
    .filter((line) => line.startsWith('music-api:'));
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^music-api: start-up failed: .*unsupported startup parameter: statement_timeout/);
}
