import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestDatabase } from '@music/db/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../src/server';
import { makeSong } from '../support/catalogue';
import { createClient, startTestApi, TEST_SECRET, testEnv, uniqueEmail } from '../support/harness';
import { type Receiver, startReceiver, until } from '../support/receiver';

/**
 * Webhooks across instances: deliveries made by whichever instance is free, each event once
 * (at least once, and in practice exactly once) however many instances dispatch; and a
 * delivery in flight on an instance that is killed, made by another.
 */

const WEBHOOK_ENV = { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true' } as const;
const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

describe('webhooks on two instances', () => {
  it('every event once, with one webhook-id each, whichever instance wrote it', async () => {
    const api = await startTestApi(WEBHOOK_ENV);
    try {
      const sibling = await api.startSibling();
      const admin = await api.signUp('admin');
      const receiver = await startReceiver();
      receivers.push(receiver);
      const made = await sibling.request('POST', '/webhooks', {
        token: admin.token,
        body: { url: receiver.url, events: ['song.created'] },
      });
      expect(made.status, made.text).toBe(201);
      const songs = await Promise.all(
        Array.from({ length: 24 }, (_, n) => makeSong(n % 2 ? sibling : api, admin, { title: `Twice ${n}` })),
      );
      await until(() => receiver.received.length >= songs.length, 15_000, 'a delivery per song');
      // Time for a duplicate to show, were one sent.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      const got = receiver.verified(made.body.secret);
      expect(got.map((g) => g.event.resource.id).sort()).toEqual(songs.map((s) => s.id).sort());
      expect(new Set(got.map((g) => g.id)).size).toBe(songs.length);
    } finally {
      await api.close();
    }
  }, 60_000);
});

const API_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BUNDLE = path.join(API_DIR, 'dist/server.mjs');

// A killed process needs a database other processes share: a PostgreSQL server (the embedded
// database belongs to one process, where the workers run in the API itself).
describe.skipIf(!process.env.TEST_DATABASE_URL)('webhooks: an instance killed mid-delivery', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'music-hooks-'));
  beforeAll(() => {
    if (!existsSync(BUNDLE))
      execFileSync('pnpm', ['--filter', '@music/api', 'build'], { cwd: API_DIR, timeout: 45_000 });
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('the delivery the killed instance was making is made by another, with the same webhook-id', async () => {
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
        ...WEBHOOK_ENV,
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
        let err = '';
        child.stderr.on('data', (chunk: Buffer) => {
          err += chunk.toString();
        });
        child.once('exit', () => reject(new Error(`exited early: ${out} ${err}`)));
      });
      const doomed = createClient(`${url}/v1`);
      const email = uniqueEmail('admin');
      const user = await doomed.request('POST', '/users', {
        body: { username: 'Hook admin', email, password: 'pw-12345678' },
      });
      await database.db.updateTable('users').set({ role: 'admin' }).where('id', '=', user.body.id).execute();
      const login = await doomed.request('POST', '/auth/login', { body: { email, password: 'pw-12345678' } });
      const admin = { token: login.body.accessToken as string };

      const receiver = await startReceiver();
      receivers.push(receiver);
      receiver.answer('hang');
      const made = await doomed.request('POST', '/webhooks', {
        token: admin.token,
        body: { url: receiver.url, events: ['song.created'] },
      });
      expect(made.status, made.text).toBe(201);
      const song = await doomed.request('POST', '/songs', {
        token: admin.token,
        body: { title: 'Killed', duration: 1 },
      });
      // The only instance has the delivery in flight (the receiver holds it)...
      await until(() => receiver.received.length === 1, 10_000, 'the first attempt');
      // ...another instance runs, and the first is killed mid-delivery.
      survivor = await startServer(testEnv(WEBHOOK_ENV), { database });
      child.kill('SIGKILL');
      await until(() => receiver.received.length >= 2, 60_000, 'the delivery made by the survivor');
      const [first, second] = receiver.received;
      expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
      expect(second!.body).toBe(first!.body);
      const [got] = receiver.verified(made.body.secret).slice(1);
      expect(got!.event).toMatchObject({ type: 'song.created', resource: { id: song.body.id } });
      const list = await createClient(`${survivor.url}/v1`).request(
        'GET',
        `/webhooks/${made.body.id}/deliveries`,
        {
          token: admin.token,
        },
      );
      const delivery = list.body.data[0];
      for (let tries = 0; tries < 50 && delivery.status !== 'succeeded'; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        Object.assign(
          delivery,
          (
            await createClient(`${survivor.url}/v1`).request('GET', `/webhooks/${made.body.id}/deliveries`, {
              token: admin.token,
            })
          ).body.data[0],
        );
      }
      expect(delivery).toMatchObject({
        id: first!.headers['webhook-id'],
        status: 'succeeded',
        responseStatus: 204,
      });
    } finally {
      child.kill('SIGKILL');
      await survivor?.close({ graceMs: 1_000 });
      await database.close();
    }
  }, 90_000);
});
