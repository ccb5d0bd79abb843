import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { error, makePlaylist, makeSong, validation } from '../support/catalogue';
import { type Client, type SignedIn, startTestApi } from '../support/harness';
import { type Receiver, startReceiver, until } from '../support/receiver';

/**
 * Webhooks: which URLs and types are refused (422 in words), who is sent what (the events the
 * owner may read, decided at dispatch), pausing, enabling again, being disabled by failures,
 * deleting, and what the audit trail keeps of them.
 */

const api = await startTestApi({
  WEBHOOK_ALLOW_HTTP: 'true',
  WEBHOOK_ALLOW_PRIVATE: 'true',
  WEBHOOK_RETRY_SECONDS: [1, 1, 1],
  WEBHOOK_MAX_FAILURES: 3,
});
afterAll(() => api.close());
const admin = await api.signUp('admin');
const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function hookFor(events: string[], who: SignedIn) {
  const receiver = await startReceiver();
  receivers.push(receiver);
  const res = await api.request('POST', '/webhooks', {
    token: who.token,
    body: { url: receiver.url, events },
  });
  expect(res.status, res.text).toBe(201);
  return { receiver, hook: res.body as { id: string; secret: string } };
}

/** Waits a little past the first attempt's deadline: what has not come by then was not sent. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 3_000));

describe('webhooks: what is refused', () => {
  it('URLs outside the policy are 422 on url, in words', async () => {
    // An instance with the default policy (https only, public addresses only), for this test
    // only: instances of one service share their configuration, and this one would refuse to
    // deliver to the loopback receivers of the others.
    const strict = await api.startSibling({ WEBHOOK_ALLOW_HTTP: 'false', WEBHOOK_ALLOW_PRIVATE: 'false' });
    const user = await api.signUp();
    const refused = async (client: Client, url: string, word: RegExp) => {
      const res = await client.request('POST', '/webhooks', {
        token: user.token,
        body: { url, events: ['song.*'] },
      });
      expect(res.status, `${url}: ${res.text}`).toBe(422);
      expect(res.body).toEqual(validation(['url']));
      expect(res.body.errors[0].message).toMatch(word);
    };
    await refused(strict, 'http://93.184.216.34/hook', /https/);
    await refused(strict, 'https://127.0.0.1/hook', /loopback|private|address/i);
    await refused(strict, 'https://10.1.2.3/hook', /private|address/i);
    await refused(strict, 'https://user:pw@93.184.216.34/hook', /user name|password/);
    await refused(strict, 'not a url', /URL/);
    // Link-local and metadata addresses are refused even where private ones are allowed.
    await refused(api, 'http://169.254.169.254/latest/meta-data', /link-local|metadata|address/i);
    await refused(api, 'http://[fd00:ec2::254]/', /metadata|address/i);
    await refused(api, 'http://[fe80::1]/', /link-local|address/i);
    // A public address is accepted by the strict policy (deleted at once: nothing is sent there).
    const ok = await strict.request('POST', '/webhooks', {
      token: user.token,
      body: { url: 'https://93.184.216.34/hook', events: ['artist.deleted'] },
    });
    expect(ok.status, ok.text).toBe(201);
    expect((await api.request('DELETE', `/webhooks/${ok.body.id}`, { token: user.token })).status).toBe(204);
    await strict.close();
  });

  it('unknown, repeated or missing types are 422 on events; user events are for admins', async () => {
    const user = await api.signUp();
    const post = (token: string, events: unknown) =>
      api.request('POST', '/webhooks', { token, body: { url: 'http://127.0.0.1:9/x', events } });
    for (const events of [['song.renamed'], ['song.*', 'song.*'], [], 'song.*']) {
      const res = await post(user.token, events);
      expect(res.status, JSON.stringify(events)).toBe(422);
      expect(res.body).toEqual(validation(['events']));
    }
    const forUser = await post(user.token, ['user.created']);
    expect(forUser.status).toBe(422);
    expect(forUser.body.errors[0].message).toBe('Only admins may be sent user events');
    const forAdmin = await post(admin.token, ['user.*']);
    expect(forAdmin.status, forAdmin.text).toBe(201);
    // An admin changing a user's webhook cannot give it user events either.
    const users = await post(user.token, ['song.created']);
    const patched = await api.request('PATCH', `/webhooks/${users.body.id}`, {
      token: admin.token,
      body: { events: ['user.*'] },
    });
    expect(patched.status).toBe(422);
    for (const id of [forAdmin.body.id, users.body.id]) {
      expect((await api.request('DELETE', `/webhooks/${id}`, { token: admin.token })).status).toBe(204);
    }
  });

  it('the secret is shown once; reads never show it; at most 25 webhooks an account', async () => {
    const user = await api.signUp();
    const made = await api.request('POST', '/webhooks', {
      token: user.token,
      body: { url: 'http://127.0.0.1:9/x', events: ['artist.deleted'], description: 'Mine' },
    });
    expect(made.body.secret).toMatch(/^whsec_/);
    const read = await api.request('GET', `/webhooks/${made.body.id}`, { token: user.token });
    const { secret: _secret, ...rest } = made.body;
    expect(read.body).toEqual(rest);
    expect(read.text).not.toContain(made.body.secret);
    const list = await api.request('GET', '/webhooks', { token: user.token });
    expect(list.text).not.toContain('whsec_');
    for (let n = 1; n < 25; n++) {
      await api.request('POST', '/webhooks', {
        token: user.token,
        body: { url: 'http://127.0.0.1:9/x', events: ['artist.deleted'] },
      });
    }
    const over = await api.request('POST', '/webhooks', {
      token: user.token,
      body: { url: 'http://127.0.0.1:9/x', events: ['artist.deleted'] },
    });
    expect(over.status).toBe(409);
    expect(over.body).toEqual(error('CONFLICT'));
    const audit = await api.request('GET', `/audit-events?targetId=${made.body.id}`, { token: admin.token });
    expect(audit.body.data.map((e: { action: string }) => e.action)).toEqual(['webhook.created']);
    expect(audit.text).not.toContain(made.body.secret);
  });
});

describe('webhooks: who is sent what', () => {
  it('a user is sent their own playlists and public ones, never others’ private ones', async () => {
    const [user, other] = [await api.signUp(), await api.signUp()];
    const { receiver, hook } = await hookFor(['playlist.created'], user);
    const mine = await makePlaylist(api, user, { isPublic: false });
    const theirsPublic = await makePlaylist(api, other, { isPublic: true });
    await makePlaylist(api, other, { isPublic: false });
    await until(() => receiver.received.length >= 2, 5_000, 'two deliveries');
    await settle();
    expect(
      receiver
        .verified(hook.secret)
        .map((g) => g.event.resource.id)
        .sort(),
    ).toEqual([mine.id, theirsPublic.id].sort());
  });

  it('user events go to admins’ webhooks only, and stop when the owner is no longer admin', async () => {
    const otherAdmin = await api.signUp('admin');
    const { receiver, hook } = await hookFor(['user.created'], otherAdmin);
    const first = await api.signUp();
    await until(() => receiver.received.length >= 1, 5_000, 'the user event');
    expect(receiver.verified(hook.secret)[0]!.event.resource.id).toBe(first.id);
    const demoted = await api.request('PUT', `/users/${otherAdmin.id}/role`, {
      token: admin.token,
      body: { role: 'user' },
    });
    expect(demoted.status, demoted.text).toBe(200);
    await api.signUp();
    await settle();
    expect(receiver.received.map((r) => JSON.parse(r.body).type)).toEqual(['user.created']);
  });

  it('paused: nothing sent; enabled again: sent from then on; deleted: nothing more', async () => {
    const { receiver, hook } = await hookFor(['song.created'], admin);
    const paused = await api.request('PATCH', `/webhooks/${hook.id}`, {
      token: admin.token,
      body: { enabled: false },
    });
    expect(paused.body).toMatchObject({ enabled: false, disabledReason: 'Paused by its owner' });
    await makeSong(api, admin);
    await settle();
    expect(receiver.received).toHaveLength(0);
    await api.request('PATCH', `/webhooks/${hook.id}`, { token: admin.token, body: { enabled: true } });
    const song = await makeSong(api, admin);
    await until(() => receiver.received.length >= 1, 5_000, 'the delivery after enabling');
    expect(receiver.verified(hook.secret).map((g) => g.event.resource.id)).toEqual([song.id]);
    expect((await api.request('DELETE', `/webhooks/${hook.id}`, { token: admin.token })).status).toBe(204);
    await makeSong(api, admin);
    await settle();
    expect(receiver.received).toHaveLength(1);
    expect((await api.request('GET', `/webhooks/${hook.id}`, { token: admin.token })).status).toBe(404);
  });

  it('disabled after WEBHOOK_MAX_FAILURES failures in a row, and says so; enabling resets the count', async () => {
    const { receiver, hook } = await hookFor(['song.created'], admin);
    receiver.answerOtherwise(500);
    await makeSong(api, admin);
    await until(() => receiver.received.length >= 3, 10_000, 'three failed attempts');
    let state: Record<string, unknown> = {};
    for (let tries = 0; tries < 50 && state.enabled !== false; tries++) {
      state = (await api.request('GET', `/webhooks/${hook.id}`, { token: admin.token })).body;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(state).toMatchObject({
      enabled: false,
      failures: 3,
      disabledReason: 'Disabled after 3 failed deliveries in a row',
    });
    // The retry left in the schedule is not sent to a disabled webhook.
    await settle();
    expect(receiver.received).toHaveLength(3);
    const [delivery] = (await api.request('GET', `/webhooks/${hook.id}/deliveries`, { token: admin.token }))
      .body.data;
    expect(delivery).toMatchObject({ status: 'failed', error: 'Not sent: the webhook is disabled' });
    const enabled = await api.request('PATCH', `/webhooks/${hook.id}`, {
      token: admin.token,
      body: { enabled: true },
    });
    expect(enabled.body).toMatchObject({
      enabled: true,
      failures: 0,
      disabledAt: null,
      disabledReason: null,
    });
  });
});
