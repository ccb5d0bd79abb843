import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createContextInner } from '@music/api-router';
import { createRouterHarness } from '@music/api-router/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { createTrpcTransport } from './trpc-transport';

/**
 * The transport on its own, with a context builder that counts its calls: every run of a
 * procedure builds one context, so the count is the number of runs.
 */
const h = await createRouterHarness();
afterAll(() => h.close());
const actor = await h.makeActor('user');
let contexts = 0;
const trpc = createTrpcTransport({
  createContext: async (_req, requestId) => {
    contexts++;
    return createContextInner(h.deps, { actor, clientAddress: '127.0.0.1', requestId });
  },
  onInternalError: (requestId, error) => h.deps.log.error('request failed', { requestId, error }),
});
const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const route = url.pathname.slice('/trpc/'.length).split('/');
  void trpc({ req, res, url, route, requestId: 'test-request', headers: { 'X-Request-Id': 'test-request' } });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
afterAll(() => new Promise((resolve) => server.close(resolve)));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/trpc`;

const input = (value: unknown) => encodeURIComponent(JSON.stringify(value));

describe('/trpc transport', () => {
  it('runs a failing plain query once, answering it itself in tRPC’s error shape', async () => {
    contexts = 0;
    const res = await fetch(
      `${base}/songs.get?input=${input({ songId: '00000000-0000-4000-8000-000000000000' })}`,
    );
    expect(contexts).toBe(1);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({
      error: {
        message: 'Song not found',
        code: -32004,
        data: { code: 'NOT_FOUND', httpStatus: 404, path: 'songs.get' },
      },
    });
  });

  it('runs a succeeding plain query once', async () => {
    contexts = 0;
    const res = await fetch(`${base}/auth.me`);
    expect(res.status).toBe(200);
    expect(contexts).toBe(1);
  });

  it('hands a query whose input is not JSON to tRPC’s handler: 400, one run', async () => {
    contexts = 0;
    const res = await fetch(`${base}/songs.get?input=%7Bnot-json`);
    expect(res.status).toBe(400);
    expect(contexts).toBe(1);
    expect(((await res.json()) as { error: { data: { code: string } } }).error.data.code).toBe('BAD_REQUEST');
  });
});
