import { createTestDatabase } from '@music/db/testing';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../src/server';
import { makeSong } from '../support/catalogue';
import { ensureBundle, startChildApi } from '../support/child-api';
import { createClient, startTestApi, testEnv } from '../support/harness';
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

// A killed process needs a database other processes share: a PostgreSQL server (the embedded
// database belongs to one process, where the workers run in the API itself).
describe.skipIf(!process.env.TEST_DATABASE_URL)('webhooks: an instance killed mid-delivery', () => {
  beforeAll(ensureBundle);

  it('the delivery the killed instance was making is made by another, with the same webhook-id', async () => {
    const database = await createTestDatabase();
    const doomed = await startChildApi(database, WEBHOOK_ENV);
    let survivor: Awaited<ReturnType<typeof startServer>> | undefined;
    try {
      const { admin } = doomed;
      const receiver = await startReceiver();
      receivers.push(receiver);
      receiver.answer('hang');
      const made = await doomed.client.request('POST', '/webhooks', {
        token: admin.token,
        body: { url: receiver.url, events: ['song.created'] },
      });
      expect(made.status, made.text).toBe(201);
      const song = await doomed.client.request('POST', '/songs', {
        token: admin.token,
        body: { title: 'Killed', duration: 1 },
      });
      // The only instance has the delivery in flight (the receiver holds it)...
      await until(() => receiver.received.length === 1, 10_000, 'the first attempt');
      // ...another instance runs, and the first is killed mid-delivery.
      survivor = await startServer(testEnv(WEBHOOK_ENV), { database });
      doomed.kill();
      await until(() => receiver.received.length >= 2, 60_000, 'the delivery made by the survivor');
      const [first, second] = receiver.received;
      expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
      expect(second!.body).toBe(first!.body);
      const [got] = receiver.verified(made.body.secret).slice(1);
      expect(got!.event).toMatchObject({ type: 'song.created', resource: { id: song.body.id } });
      const survivorClient = createClient(`${survivor.url}/v1`);
      let delivery: Record<string, unknown> = {};
      for (let tries = 0; tries < 50 && delivery.status !== 'succeeded'; tries++) {
        const list = await survivorClient.request('GET', `/webhooks/${made.body.id}/deliveries`, {
          token: admin.token,
        });
        delivery = list.body.data[0];
        if (delivery.status !== 'succeeded') await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(delivery).toMatchObject({
        id: first!.headers['webhook-id'],
        status: 'succeeded',
        responseStatus: 204,
      });
    } finally {
      doomed.kill();
      await survivor?.close({ graceMs: 1_000 });
      await database.close();
    }
  }, 90_000);
});
