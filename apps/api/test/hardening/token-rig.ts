import { afterAll, beforeAll, expect } from 'vitest';
import type { Env } from '../../src/runtime/env';
import { type Client, type Response, startTestApi, type TestApi } from '../support/harness';
import { codeOf, errorShapeOk, type Transport, type TrpcClient, trpcOf } from './support';

/**
 * The token suites' servers: an API and a sibling instance on the same database, each reached
 * on both transports, and the requests those suites send through any of the four.
 */

export const TRANSPORTS: Transport[] = ['v1', 'trpc'];
type Which = 'main' | 'sibling';

export interface TokenRig {
  api: TestApi;
  trpc: TrpcClient;
  sibling: Client & { close(): Promise<void> };
  siblingTrpc: TrpcClient;
}

/** Each login attempt comes from its own address unless a test says otherwise (address throttling). */
let addressCounter = 0;
export function uniqueAddress(): string {
  addressCounter++;
  return `2001:db8::${addressCounter.toString(16)}`;
}

/** Starts the servers before the file's tests (closing them after) and sends through them. */
export function useTokenRig(overrides: Partial<Env> = {}) {
  const rig = {} as TokenRig;
  beforeAll(async () => {
    rig.api = await startTestApi(overrides);
    rig.trpc = trpcOf(rig.api);
    rig.sibling = await rig.api.startSibling();
    rig.siblingTrpc = trpcOf(rig.sibling);
  });
  afterAll(() => rig.api?.close());

  const client = (transport: Transport, which: Which = 'main'): Client =>
    which === 'main'
      ? { v1: rig.api as Client, trpc: rig.trpc }[transport]
      : { v1: rig.sibling, trpc: rig.siblingTrpc }[transport];

  return {
    rig,
    /** `GET /v1/auth/me` or `auth.me` with a bearer token (none when undefined). */
    me(transport: Transport, token: string | undefined, which: Which = 'main') {
      const headers: Record<string, string> = token === undefined ? {} : { authorization: `Bearer ${token}` };
      return client(transport, which).request('GET', transport === 'v1' ? '/auth/me' : '/auth.me', {
        headers,
      });
    },
    /** A protected mutation: creates a playlist. */
    createPlaylist(transport: Transport, token: string) {
      const headers = { authorization: `Bearer ${token}` };
      const body = { name: 'forged' };
      if (transport === 'v1') return rig.api.request('POST', '/playlists', { headers, body });
      return rig.trpc.request('POST', '/playlists.create', { headers, body });
    },
    refresh(transport: Transport, refreshToken: string, which: Which = 'main') {
      if (transport === 'v1')
        return client('v1', which).request('POST', '/auth/refresh', { body: { refreshToken } });
      return (client('trpc', which) as TrpcClient).call('auth.refresh', { refreshToken });
    },
    login(transport: Transport, body: unknown, address = uniqueAddress(), which: Which = 'main') {
      const headers = { 'x-forwarded-for': address };
      return client(transport, which).request('POST', transport === 'v1' ? '/auth/login' : '/auth.login', {
        body,
        headers,
      });
    },
  };
}

/** The token pair of a token response on either transport. */
export function pair(res: Response): { accessToken: string; refreshToken: string } {
  const body = res.body as { accessToken?: string; result?: { data: { accessToken: string } } };
  return (body.result?.data ?? body) as { accessToken: string; refreshToken: string };
}

export function expectUnauthorized(transport: Transport, res: Response, label: string) {
  expect(res.status, label).toBe(401);
  expect(codeOf(res), label).toBe('UNAUTHORIZED');
  expect(errorShapeOk(transport, res), label).toBe(true);
  expect(res.text, label).not.toMatch(/stack|\.ts:\d|jose|JWS|JWT[A-Z]/);
}
