import { randomBytes } from 'node:crypto';
import type { Env } from '../../../apps/api/src/runtime/env';
import { type SignedIn, startTestApi, type TestApi } from '../../../apps/api/test/support/harness';
import { createMusicClient, type MusicClient, type MusicClientOptions } from '../src/index';

/**
 * The SDK's tests run against a real API: the server of the API's own HTTP suites, in this
 * process, on a database of its own (embedded PGlite, or TEST_DATABASE_URL's server).
 */
export async function startApi(overrides: Partial<Env> = {}): Promise<TestApi> {
  return startTestApi(overrides);
}

/** One request as it went over the wire, below every layer of the client. */
export interface Sent {
  method: string;
  /** Path and query below the origin: `/v1/songs?limit=2`. */
  path: string;
  headers: Headers;
  status: number;
  /** The answer's headers. */
  answered: Headers;
}

/** A `fetch` that records what it sends and what comes back. */
export function recordingFetch(): { sent: Sent[]; fetch: (request: Request) => Promise<Response> } {
  const sent: Sent[] = [];
  return {
    sent,
    async fetch(request) {
      const headers = new Headers(request.headers);
      const response = await fetch(request);
      const url = new URL(request.url);
      sent.push({
        method: request.method,
        path: `${url.pathname}${url.search}`,
        headers,
        status: response.status,
        answered: new Headers(response.headers),
      });
      return response;
    },
  };
}

/** An SDK client of `api`, recording its wire traffic. */
export function clientOf(
  api: TestApi,
  options: Omit<MusicClientOptions, 'baseUrl' | 'fetch'> = {},
): { client: MusicClient; sent: Sent[] } {
  const { sent, fetch } = recordingFetch();
  const client = createMusicClient({ baseUrl: api.server.url, fetch, ...options });
  return { client, sent };
}

/** A client signed in as `user` (its tokens from the harness's sign-in). */
export function sessionOf(
  api: TestApi,
  user: SignedIn,
  options: Omit<MusicClientOptions, 'baseUrl' | 'fetch'> = {},
) {
  return clientOf(api, { session: { accessToken: user.token, refreshToken: user.refreshToken }, ...options });
}

/** Unique to one test: titles and searches carry it, so tests never see each other's songs. */
export const tagOf = () => `sdk${randomBytes(5).toString('hex')}`;

/** `token` with its signature changed: well formed, and refused by the API (401 invalid_token). */
export function refusedToken(token: string): string {
  // Inside the signature (not its last character, part of which is padding).
  const at = token.length - 5;
  return `${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`;
}
