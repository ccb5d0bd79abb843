import { afterAll, describe, expect, it } from 'vitest';
import { error } from '../support/catalogue';
import { startTestApi } from '../support/harness';
import { type Receiver, startReceiver } from '../support/receiver';

/**
 * If-Match on a webhook's writes: the tag its GET answered changes or deletes it; a tag made stale
 * by another write is refused with 412, and the webhook is left as it was.
 */

const api = await startTestApi({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true' });
const receiver: Receiver = await startReceiver();
afterAll(async () => {
  await receiver.close();
  await api.close();
});
const owner = await api.signUp();

async function makeHook(): Promise<string> {
  const res = await api.request<{ id: string }>('POST', '/webhooks', {
    token: owner.token,
    body: { url: receiver.url, events: ['song.created'], description: 'First' },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

const read = (id: string) => api.request('GET', `/webhooks/${id}`, { token: owner.token });

describe('If-Match on webhook writes', () => {
  it('PATCH: the current tag changes it; once stale, 412 and nothing changes', async () => {
    const id = await makeHook();
    const first = await read(id);
    const tag = first.headers.get('etag')!;
    expect(tag).toMatch(/^"[A-Za-z0-9_-]+"$/);

    const patched = await api.request('PATCH', `/webhooks/${id}`, {
      token: owner.token,
      headers: { 'if-match': tag },
      body: { description: 'Second' },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({ description: 'Second', enabled: true });
    const next = patched.headers.get('etag')!;
    expect(next).not.toBe(tag);

    const stale = await api.request('PATCH', `/webhooks/${id}`, {
      token: owner.token,
      headers: { 'if-match': tag },
      body: { description: 'Lost', enabled: false, events: ['song.updated'] },
    });
    expect(stale.status).toBe(412);
    expect(stale.body).toEqual(error('PRECONDITION_FAILED'));
    const after = await read(id);
    expect(after.text).toBe(patched.text);
    expect(after.headers.get('etag')).toBe(next);
  });

  it('DELETE: a stale tag is 412 and the webhook stays; the current tag deletes it', async () => {
    const id = await makeHook();
    const tag = (await read(id)).headers.get('etag')!;
    // Another client's change makes the tag stale.
    const theirs = await api.request('PATCH', `/webhooks/${id}`, {
      token: owner.token,
      body: { description: 'Theirs' },
    });
    expect(theirs.status).toBe(200);

    const stale = await api.request('DELETE', `/webhooks/${id}`, {
      token: owner.token,
      headers: { 'if-match': tag },
    });
    expect(stale.status).toBe(412);
    expect(stale.body).toEqual(error('PRECONDITION_FAILED'));
    const kept = await read(id);
    expect(kept.status).toBe(200);
    expect(kept.text).toBe(theirs.text);

    const removed = await api.request('DELETE', `/webhooks/${id}`, {
      token: owner.token,
      headers: { 'if-match': kept.headers.get('etag')! },
    });
    expect(removed.status).toBe(204);
    expect((await read(id)).status).toBe(404);
  });
});
