import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { DATE, makeSong, type Song, UUID } from '../support/catalogue';
import { startTestApi } from '../support/harness';
import { type Receiver, startReceiver, until } from '../support/receiver';

/**
 * Webhook deliveries end to end, against a receiver on loopback that fails, times out and
 * recovers: what arrives, signed how (checked with the standardwebhooks library's own verifier),
 * with which ids, retried when, and what the deliveries list says of it.
 */

const api = await startTestApi({
  WEBHOOK_ALLOW_HTTP: 'true',
  WEBHOOK_ALLOW_PRIVATE: 'true',
  WEBHOOK_RETRY_SECONDS: [1, 1, 1],
});
afterAll(() => api.close());
const admin = await api.signUp('admin');
const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function hookFor(events: string[], token = admin.token) {
  const receiver = await startReceiver();
  receivers.push(receiver);
  const res = await api.request('POST', '/webhooks', { token, body: { url: receiver.url, events } });
  expect(res.status, res.text).toBe(201);
  return { receiver, hook: res.body as { id: string; secret: string } };
}

const deliveriesOf = async (hookId: string, token = admin.token) => {
  const res = await api.request('GET', `/webhooks/${hookId}/deliveries?limit=100`, { token });
  expect(res.status, res.text).toBe(200);
  return res.body.data as Array<Record<string, unknown>>;
};

describe('webhooks: delivery', () => {
  it('sends each event of its types within 5 s, signed, as the feed shows it', async () => {
    const { receiver, hook } = await hookFor(['song.*']);
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const started = Date.now();
    const song = await makeSong(api, admin, { title: 'Hooked' });
    await until(() => receiver.received.length >= 1, 5_000, 'the first delivery');
    expect(receiver.received[0]!.at - started).toBeLessThan(5_000);
    const patched = await api.request<Song>('PATCH', `/songs/${song.id}`, {
      token: admin.token,
      body: { title: 'Hooked again' },
    });
    expect(patched.status).toBe(200);
    await until(() => receiver.received.length >= 2, 5_000, 'the second delivery');

    const got = receiver.verified(hook.secret);
    expect(got.map((g) => g.event.type)).toEqual(['song.created', 'song.updated']);
    // The body is the feed's own event, id for id.
    const feed = await api.request('GET', '/events?types=song.*&limit=1000', { token: admin.token });
    const fromFeed = (feed.body.data as Array<{ id: string }>).filter((e) =>
      got.some((g) => g.event.id === e.id),
    );
    expect(got.map((g) => g.event)).toEqual(fromFeed);
    expect(got[1]!.event.data).toEqual(patched.body);
    // Headers as Standard Webhooks say; a webhook-id per delivery.
    const headers = receiver.received[0]!.headers;
    expect(headers['content-type']).toBe('application/json');
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(Number(headers['webhook-timestamp'])).toBeGreaterThan(started / 1000 - 5);
    expect(new Set(got.map((g) => g.id)).size).toBe(2);

    const deliveries = await deliveriesOf(hook.id);
    expect(deliveries.map((d) => [d.eventType, d.status, d.attempts, d.responseStatus])).toEqual([
      ['song.updated', 'succeeded', 1, 204],
      ['song.created', 'succeeded', 1, 204],
    ]);
    expect(deliveries[0]).toMatchObject({
      id: got[1]!.id,
      eventId: got[1]!.event.id,
      nextAttemptAt: null,
      lastAttemptAt: expect.stringMatching(DATE),
      error: null,
    });
    // Another secret does not verify.
    const other = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;
    expect(() => receiver.verified(other)).toThrow();
  });

  it('retries a failing receiver on the schedule with one webhook-id, keeping 1 KiB of each answer', async () => {
    const { receiver, hook } = await hookFor(['song.created']);
    receiver.answer(503, 500);
    const song = await makeSong(api, admin);
    await until(() => receiver.received.length >= 3, 15_000, 'three attempts');
    const ids = receiver.received.map((r) => r.headers['webhook-id']);
    expect(new Set(ids).size).toBe(1);
    // Retried after the waits of WEBHOOK_RETRY_SECONDS (1 s here), not at once.
    for (let n = 1; n < 3; n++) {
      expect(receiver.received[n]!.at - receiver.received[n - 1]!.at).toBeGreaterThanOrEqual(900);
    }
    expect(receiver.verified(hook.secret).map((g) => g.event.resource.id)).toEqual([
      song.id,
      song.id,
      song.id,
    ]);
    const delivery = await waitForStatus(hook.id, 'succeeded');
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 3, responseStatus: 204, id: ids[0] });
    const hookNow = await api.request('GET', `/webhooks/${hook.id}`, { token: admin.token });
    expect(hookNow.body).toMatchObject({ enabled: true, failures: 0 });
  });

  it('takes no answer within 10 s as a failure, and delivers on the retry', async () => {
    const { receiver, hook } = await hookFor(['song.created']);
    receiver.answer('hang');
    await makeSong(api, admin);
    await until(() => receiver.received.length >= 2, 20_000, 'the retry after a timeout');
    expect(receiver.received[1]!.at - receiver.received[0]!.at).toBeGreaterThanOrEqual(10_000);
    expect(receiver.received[0]!.headers['webhook-id']).toBe(receiver.received[1]!.headers['webhook-id']);
    const delivery = await waitForStatus(hook.id, 'succeeded');
    expect(delivery).toMatchObject({ attempts: 2, responseStatus: 204 });
  }, 30_000);

  it('gives up after the last retry (failed, with the last answer kept to 1 KiB); send again, by hand', async () => {
    const { receiver, hook } = await hookFor(['song.created']);
    receiver.answerOtherwise(500);
    await makeSong(api, admin);
    // The first attempt and the 3 retries of the schedule.
    await until(() => receiver.received.length >= 4, 15_000, 'four attempts');
    const failed = await waitForStatus(hook.id, 'failed');
    expect(failed).toMatchObject({ attempts: 4, responseStatus: 500, nextAttemptAt: null });
    expect(String(failed.responseBody).length).toBe(1024);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(receiver.received).toHaveLength(4);

    receiver.answerOtherwise(200);
    const again = await api.request('POST', `/webhooks/${hook.id}/deliveries/${failed.id}/retry`, {
      token: admin.token,
    });
    expect(again.status, again.text).toBe(202);
    expect(again.body).toMatchObject({ id: failed.id, status: 'pending' });
    await until(() => receiver.received.length >= 5, 5_000, 'the delivery sent again');
    expect(receiver.received[4]!.headers['webhook-id']).toBe(failed.id);
    expect(await waitForStatus(hook.id, 'succeeded')).toMatchObject({ attempts: 5, responseStatus: 200 });
    const hookNow = await api.request('GET', `/webhooks/${hook.id}`, { token: admin.token });
    expect(hookNow.body).toMatchObject({ enabled: true, failures: 0 });
  }, 30_000);

  it('a test ping: webhook.ping, signed, listed among the deliveries', async () => {
    const { receiver, hook } = await hookFor(['artist.created']);
    const res = await api.request('POST', `/webhooks/${hook.id}/ping`, { token: admin.token });
    expect(res.status, res.text).toBe(202);
    expect(res.body).toMatchObject({
      eventType: 'webhook.ping',
      status: 'pending',
      attempts: 0,
      id: expect.stringMatching(UUID),
    });
    await until(() => receiver.received.length >= 1, 5_000, 'the ping');
    const [ping] = receiver.verified(hook.secret);
    expect(ping!.event).toMatchObject({ type: 'webhook.ping', resource: { type: 'webhook', id: hook.id } });
    expect(ping!.id).toBe(res.body.id);
    expect(await waitForStatus(hook.id, 'succeeded')).toMatchObject({ eventType: 'webhook.ping' });
  });
});

async function waitForStatus(hookId: string, status: string) {
  for (let tries = 0; tries < 100; tries++) {
    const [latest] = await deliveriesOf(hookId);
    if (latest?.status === status) return latest;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the latest delivery of ${hookId} never became ${status}`);
}
