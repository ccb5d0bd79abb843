import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApi } from '../../../apps/api/test/support/harness';
import { pageMode } from '../src/index';
import { clientOf, sessionOf, startApi, tagOf } from './support';

let api: TestApi;
beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api?.close());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('lists', () => {
  it('iterates every item of a list by following the Link header', async () => {
    const admin = await api.signUp('admin');
    const { client, sent } = sessionOf(api, admin);
    const tag = tagOf();
    const titles = ['e', 'b', 'd', 'a', 'c'].map((letter) => `${tag} ${letter}`);
    for (const title of titles) {
      const { response } = await client.POST('/songs', { body: { title, duration: 100 } });
      expect(response.status).toBe(201);
    }
    sent.length = 0;

    const seen: string[] = [];
    for await (const song of client.list('/songs', { query: { search: tag, limit: 2 } }))
      seen.push(song.title);
    expect(seen).toEqual([...titles].sort());
    // Three pages of two, each the previous page's rel="next", keeping search and limit.
    expect(sent.map((r) => `${r.method} ${r.status}`)).toEqual(['GET 200', 'GET 200', 'GET 200']);
    const pages = sent.map((r) => new URL(r.path, 'http://x').searchParams);
    expect(pages.map((q) => q.get('page'))).toEqual([null, '2', '3']);
    for (const query of pages) expect([query.get('search'), query.get('limit')]).toEqual([tag, '2']);
  });

  it('iterates by cursor when asked to (cursor=), stable while songs are added, and pageMode narrows page answers', async () => {
    const admin = await api.signUp('admin');
    const { client, sent } = sessionOf(api, admin);
    const tag = tagOf();
    for (const letter of ['b', 'd', 'f'])
      await client.POST('/songs', { body: { title: `${tag} ${letter}`, duration: 90 } });
    sent.length = 0;
    const seen: string[] = [];
    for await (const song of client.list('/songs', { query: { search: tag, limit: 1, cursor: '' } })) {
      seen.push(song.title);
      // Added behind and ahead of the cursor while reading: only those ahead are met.
      if (seen.length === 2) {
        await client.POST('/songs', { body: { title: `${tag} a`, duration: 90 } });
        await client.POST('/songs', { body: { title: `${tag} e`, duration: 90 } });
      }
    }
    expect(seen).toEqual([`${tag} b`, `${tag} d`, `${tag} e`, `${tag} f`]);
    const reads = sent.filter((r) => r.method === 'GET').map((r) => new URL(r.path, 'http://x').searchParams);
    expect(reads[0]?.get('cursor')).toBe('');
    expect(reads.slice(1).every((q) => (q.get('cursor') ?? '').length > 0 && !q.has('page'))).toBe(true);

    const paged = await client.GET('/songs', { params: { query: { search: tag } } });
    expect(pageMode(paged.data!.pagination).total).toBe(5);
    const cursored = await client.GET('/songs', { params: { query: { search: tag, cursor: '' } } });
    expect(() => pageMode(cursored.data!.pagination)).toThrow(/cursor/);
  });

  it('keeps to the origin it was given when the links name another (a TLS-ending proxy in front)', async () => {
    const admin = await api.signUp('admin');
    // As a proxy that ends TLS would say: the API (trusting loopback) then links to https://.
    const { client, sent } = sessionOf(api, admin, { headers: { 'X-Forwarded-Proto': 'https' } });
    const tag = tagOf();
    for (const n of [1, 2, 3]) await client.POST('/songs', { body: { title: `${tag} ${n}`, duration: 90 } });
    sent.length = 0;
    const titles: string[] = [];
    for await (const song of client.list('/songs', { query: { search: tag, limit: 2 } }))
      titles.push(song.title);
    expect(titles).toEqual([`${tag} 1`, `${tag} 2`, `${tag} 3`]);
    expect(sent[0]?.answered.get('Link')).toContain(`<https://${new URL(api.server.url).host}/v1/songs?`);
    expect(sent.map((r) => r.status)).toEqual([200, 200]);
  });

  it('stops early when the loop does, and fetches no page it does not need', async () => {
    const admin = await api.signUp('admin');
    const { client, sent } = sessionOf(api, admin);
    const tag = tagOf();
    for (const n of [1, 2, 3, 4])
      await client.POST('/songs', { body: { title: `${tag} ${n}`, duration: 90 } });
    sent.length = 0;
    for await (const song of client.list('/songs', { query: { search: tag, limit: 1 } })) {
      expect(song.title).toBe(`${tag} 1`);
      break;
    }
    expect(sent).toHaveLength(1);
  });

  it('fills path parameters, and throws a MusicApiError with the API code for a failing page', async () => {
    const user = await api.signUp();
    const { client } = sessionOf(api, user);
    const missing = '0197f1c2-5b1e-7c3a-9d2e-3f4a5b6c7d8e';
    const iterate = async () => {
      for await (const _ of client.list('/artists/{artistId}/songs', { path: { artistId: missing } })) {
        // nothing: the first page fails
      }
    };
    await expect(iterate()).rejects.toMatchObject({ name: 'MusicApiError', status: 404, code: 'NOT_FOUND' });
  });
});

describe('Idempotency-Key', () => {
  it('is a fresh UUID on every creation, and absent from other calls', async () => {
    const admin = await api.signUp('admin');
    const { client, sent } = sessionOf(api, admin);
    const tag = tagOf();
    const artist = await client.POST('/artists', { body: { name: `${tag} artist` } });
    expect(artist.response.status).toBe(201);
    await client.POST('/songs', { body: { title: `${tag} 1`, duration: 60 } });
    await client.POST('/songs', { body: { title: `${tag} 2`, duration: 60 } });
    await client.GET('/songs', { params: { query: { search: tag } } });
    const keys = sent.map((r) => r.headers.get('Idempotency-Key'));
    expect(keys[0]).toMatch(UUID);
    expect(keys[1]).toMatch(UUID);
    expect(keys[2]).toMatch(UUID);
    expect(new Set(keys.slice(0, 3)).size).toBe(3);
    expect(keys[3]).toBeNull();

    const { client: anonymous, sent: loginSent } = clientOf(api);
    await anonymous.signIn({ email: admin.email, password: admin.password });
    expect(loginSent[0]?.headers.get('Idempotency-Key')).toBeNull();
  });

  it('keeps a key the caller sets, so a retry after a restart is answered once', async () => {
    const admin = await api.signUp('admin');
    const { client, sent } = sessionOf(api, admin);
    const tag = tagOf();
    const params = { header: { 'Idempotency-Key': `${tag}-create` } };
    const body = { title: `${tag} once`, duration: 61 };
    const first = await client.POST('/songs', { params, body });
    const again = await client.POST('/songs', { params, body });
    expect(sent.map((r) => r.headers.get('Idempotency-Key'))).toEqual([`${tag}-create`, `${tag}-create`]);
    expect(again.response.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.data?.id).toBe(first.data?.id);
  });
});
