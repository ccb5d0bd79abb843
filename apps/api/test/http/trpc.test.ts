import { afterAll, describe, expect, it } from 'vitest';
import { makeArtist, makeSong } from '../support/catalogue';
import { createClient, type Response, startTestApi } from '../support/harness';

/**
 * Plain queries on `/trpc` are answered by the API's own fast path (trpc-transport.ts), failures
 * too, with the error formatter tRPC's handler uses; every other call goes through tRPC's handler. A request carrying `trpc-accept: application/json`
 * always takes tRPC's handler, which makes the two comparable here: they must not differ.
 */
const api = await startTestApi();
afterAll(() => api.close());
const admin = await api.signUp('admin');
const trpcUrl = api.url.replace(/\/v1$/, '/trpc');

async function both(path: string, token?: string): Promise<[Response, Response]> {
  const client = createClient(trpcUrl);
  const auth: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  return Promise.all([
    client.request('GET', path, { headers: auth }),
    client.request('GET', path, { headers: { ...auth, 'trpc-accept': 'application/json' } }),
  ]);
}

function expectSame([fast, trpc]: [Response, Response]) {
  expect(fast.status).toBe(trpc.status);
  expect(fast.body).toEqual(trpc.body);
  for (const header of ['content-type', 'vary', 'cache-control']) {
    expect(fast.headers.get(header), header).toBe(trpc.headers.get(header));
  }
  expect(fast.headers.get('x-request-id')).toBeTruthy();
}

describe('/trpc queries: the fast path answers exactly as tRPC’s handler', () => {
  it('for successful queries with and without input', async () => {
    const artist = await makeArtist(api, admin);
    const song = await makeSong(api, admin, { artistIds: [artist.id] });
    const input = (value: unknown) => encodeURIComponent(JSON.stringify(value));

    const detail = await both(`/songs.get?input=${input({ songId: song.id })}`, admin.token);
    expect(detail[0].status).toBe(200);
    expect(detail[0].body).toEqual({ result: { data: expect.objectContaining({ id: song.id }) } });
    expectSame(detail);

    expectSame(await both('/auth.me', admin.token));
    expectSame(await both(`/songs.list?input=${input({ page: 1, limit: 5 })}`, admin.token));
  });

  it('for failing queries (one formatter for both)', async () => {
    const input = encodeURIComponent(JSON.stringify({ songId: '00000000-0000-4000-8000-000000000000' }));
    const missing = await both(`/songs.get?input=${input}`, admin.token);
    expect(missing[0].status).toBe(404);
    expectSame(missing);
    const anonymous = await both(`/songs.get?input=${input}`);
    expect(anonymous[0].status).toBe(401);
    expectSame(anonymous);
    const invalid = await both(`/songs.get?input=${encodeURIComponent('{"songId":1}')}`, admin.token);
    expect(invalid[0].status).toBe(422);
    expectSame(invalid);
    const malformed = await both('/songs.get?input=%7Bnot-json', admin.token);
    expect(malformed[0].status).toBe(400);
    expectSame(malformed);
  });

  it('leaves mutations, batches and unknown procedures to tRPC', async () => {
    const client = createClient(trpcUrl);
    const byGet = await client.request('GET', '/auth.logout', { token: admin.token });
    expect(byGet.status).toBe(405);
    const unknown = await client.request('GET', '/songs.nope', { token: admin.token });
    expect(unknown.status).toBe(404);
    const proto = await client.request('GET', '/__proto__', { token: admin.token });
    expect(proto.status).toBe(404);
    const batch = await client.request('GET', '/auth.me?batch=1&input=%7B%7D', { token: admin.token });
    expect(batch.status).toBe(400);
  });
});
