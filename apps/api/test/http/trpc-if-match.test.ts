import { etagOfJson } from '@music/api-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignedIn, startTestApi, type TestApi } from '../support/harness';

/**
 * `If-Match` on `/trpc` writes (version 1.1), as the console sends it: the tag is computed by the
 * client from the record's JSON as `/trpc` answered it, so it must be the tag `/v1` would send.
 */
let api: TestApi;
let admin: SignedIn;
beforeAll(async () => {
  api = await startTestApi();
  admin = await api.signUp('admin');
});
afterAll(() => api.close());

async function rpc(
  kind: 'query' | 'mutation',
  path: string,
  input: unknown,
  headers: Record<string, string> = {},
) {
  const auth = { authorization: `Bearer ${admin.token}`, ...headers };
  const res =
    kind === 'query'
      ? await fetch(`${api.server.url}/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, {
          headers: auth,
        })
      : await fetch(`${api.server.url}/trpc/${path}`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify(input),
        });
  const text = await res.text();
  return { status: res.status, text, body: JSON.parse(text) };
}

/** The record's JSON exactly as `/trpc` answered it: the text of `result.data` in the body. */
function dataJson(text: string): string {
  const prefix = '{"result":{"data":';
  expect(text.startsWith(prefix) && text.endsWith('}}')).toBe(true);
  return text.slice(prefix.length, -2);
}

async function freshSong() {
  const created = await rpc('mutation', 'songs.create', {
    title: `If-Match ${crypto.randomUUID()}`,
    duration: 180,
  });
  expect(created.status).toBe(200);
  const songId: string = created.body.result.data.id;
  const read = await rpc('query', 'songs.get', { songId });
  expect(read.status).toBe(200);
  return { songId, title: read.body.result.data.title as string, tag: etagOfJson(dataJson(read.text)) };
}

describe('If-Match on /trpc mutations', () => {
  it('computes the same tag from the /trpc answer as /v1 sends', async () => {
    const { songId, tag } = await freshSong();
    const rest = await api.request('GET', `/songs/${songId}`, { token: admin.token });
    expect(rest.headers.get('etag')).toBe(tag);
  });

  it('refuses a stale tag with 412 PRECONDITION_FAILED and changes nothing', async () => {
    const { songId, title } = await freshSong();
    const res = await rpc(
      'mutation',
      'songs.update',
      { songId, title: 'Lost update' },
      { 'if-match': '"stale"' },
    );
    expect(res.status).toBe(412);
    expect(res.body.error.data).toMatchObject({
      code: 'PRECONDITION_FAILED',
      httpStatus: 412,
      path: 'songs.update',
    });
    const after = await rpc('query', 'songs.get', { songId });
    expect(after.body.result.data.title).toBe(title);
  });

  it('applies the write with the current tag, after which that tag is stale', async () => {
    const { songId, tag } = await freshSong();
    const res = await rpc('mutation', 'songs.update', { songId, title: 'First' }, { 'if-match': tag });
    expect(res.status).toBe(200);
    expect(res.body.result.data.title).toBe('First');
    const again = await rpc('mutation', 'songs.update', { songId, title: 'Second' }, { 'if-match': tag });
    expect(again.status).toBe(412);
  });

  it('answers a malformed If-Match with 400 BAD_REQUEST in tRPC’s error shape', async () => {
    const { songId, title } = await freshSong();
    const res = await rpc('mutation', 'songs.update', { songId, title: 'Nope' }, { 'if-match': 'not-a-tag' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: {
        message: expect.stringContaining('If-Match'),
        code: -32600,
        data: { code: 'BAD_REQUEST', httpStatus: 400, path: 'songs.update' },
      },
    });
    expect((await rpc('query', 'songs.get', { songId })).body.result.data.title).toBe(title);
  });

  it('answers a caller without a token 401 before looking at a malformed If-Match', async () => {
    const { songId } = await freshSong();
    const res = await fetch(`${api.server.url}/trpc/songs.update`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'if-match': 'not-a-tag' },
      body: JSON.stringify({ songId, title: 'Nope' }),
    });
    expect(res.status).toBe(401);
  });

  it('writes as before without the header', async () => {
    const { songId } = await freshSong();
    const res = await rpc('mutation', 'songs.update', { songId, title: 'Unconditional' });
    expect(res.status).toBe(200);
    expect(res.body.result.data.title).toBe('Unconditional');
  });
});
