import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApi } from '../../../apps/api/test/support/harness';
import { sessionOf, startApi, tagOf } from './support';

let api: TestApi;
beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api?.close());

describe('ETag-aware reads', () => {
  it('revalidates a read with If-None-Match and answers a 304 with the remembered body', async () => {
    const admin = await api.signUp('admin');
    const { client, sent } = sessionOf(api, admin);
    const created = await client.POST('/songs', { body: { title: `${tagOf()} cached`, duration: 120 } });
    const songId = created.data?.id ?? '';
    const path = { songId };

    const first = await client.GET('/songs/{songId}', { params: { path } });
    const etag = first.response.headers.get('ETag');
    expect(first.response.status).toBe(200);
    expect(etag).toMatch(/^"/);

    const second = await client.GET('/songs/{songId}', { params: { path } });
    expect(sent.at(-1)?.headers.get('If-None-Match')).toBe(etag);
    expect(sent.at(-1)?.status).toBe(304);
    expect(second.response.status).toBe(200);
    expect(second.data).toEqual(first.data);
    expect(second.error).toBeUndefined();
    expect(second.response.headers.get('ETag')).toBe(etag);
    // The 304's own headers win: this answer's request id, not the first one's.
    expect(second.response.headers.get('X-Request-Id')).not.toBe(first.response.headers.get('X-Request-Id'));

    // A change makes the remembered ETag stale: the next read is a 200 with the new body.
    const patched = await client.PATCH('/songs/{songId}', { params: { path }, body: { duration: 121 } });
    expect(patched.response.status).toBe(200);
    const third = await client.GET('/songs/{songId}', { params: { path } });
    expect(sent.at(-1)?.status).toBe(200);
    expect(third.data?.duration).toBe(121);
    expect(third.response.headers.get('ETag')).not.toBe(etag);
  });

  it('leaves a read the caller conditions itself alone: its 304 is the caller’s', async () => {
    const user = await api.signUp();
    const { client } = sessionOf(api, user);
    const first = await client.GET('/auth/me');
    const etag = first.response.headers.get('ETag') ?? '';
    const own = await client.GET('/auth/me', { params: { header: { 'If-None-Match': etag } } });
    expect(own.response.status).toBe(304);
  });

  it('remembers the most recently read URLs only; a refused read is not remembered', async () => {
    const user = await api.signUp();
    const { client, sent } = sessionOf(api, user, { etags: { maxEntries: 1 } });
    const me = { params: { path: { userId: user.id } } };
    await client.GET('/auth/me');
    await client.GET('/users/{userId}', me); // the one URL remembered now
    await client.GET('/auth/me');
    await client.GET('/users/{userId}', { params: { path: { userId: 'not-an-id' } } }); // 403 to a user
    await client.GET('/auth/me');
    expect(sent.map((r) => [r.path, r.headers.has('If-None-Match'), r.status])).toEqual([
      ['/v1/auth/me', false, 200],
      [`/v1/users/${user.id}`, false, 200],
      ['/v1/auth/me', false, 200],
      ['/v1/users/not-an-id', false, 403],
      ['/v1/auth/me', true, 304],
    ]);
  });

  it('remembers nothing when turned off', async () => {
    const user = await api.signUp();
    const { client, sent } = sessionOf(api, user, { etags: false });
    await client.GET('/auth/me');
    await client.GET('/auth/me');
    expect(sent.map((r) => [r.headers.get('If-None-Match'), r.status])).toEqual([
      [null, 200],
      [null, 200],
    ]);
  });
});
