import { createMusicClient, type MusicClient, type MusicClientOptions, type SessionTokens } from '@music/sdk';

/** A client of one caller: every path, parameter and body is checked against the SDK's types. */
export type ApiClient = MusicClient;

/** Where the example finds the API: `API_URL`, else the API's own default address. */
export function apiUrlFromEnv(): string {
  return (process.env.API_URL ?? 'http://127.0.0.1:4000').replace(/\/+$/, '');
}

/** How long one request may take before the scenario calls it a failure. */
const REQUEST_TIMEOUT_MS = 15_000;

/**
 * A client of the API at `apiUrl` (no `/v1`), signed in with `session` when given. Each caller
 * gets a client of its own, so a step can never send one caller's request with another's token.
 * The SDK renews the session's access token by itself, backs off on 429 and 503 after
 * `Retry-After`, and revalidates reads with their `ETag`; `options` turns parts of it off.
 */
export function createApiClient(
  apiUrl: string,
  session?: SessionTokens,
  options: Pick<MusicClientOptions, 'retry'> = {},
): ApiClient {
  return createMusicClient({
    baseUrl: apiUrl,
    ...(session ? { session } : {}),
    timeoutMs: REQUEST_TIMEOUT_MS,
    ...options,
  });
}
