import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './schema';

/** A client of one caller: every path, parameter and body is checked against the generated types. */
export type ApiClient = Client<paths>;

/** Where the example finds the API: `API_URL`, else the API's own default address. */
export function apiUrlFromEnv(): string {
  return (process.env.API_URL ?? 'http://127.0.0.1:4000').replace(/\/+$/, '');
}

/** How long one request may take before the scenario calls it a failure. */
const REQUEST_TIMEOUT_MS = 15_000;

/**
 * A typed client for the API at `apiUrl` (no `/v1`), signed in as `accessToken` when given.
 * Each caller gets a client of its own: the token is fixed at creation, so a step can never
 * send one caller's request with another's token.
 */
export function createApiClient(apiUrl: string, accessToken?: string): ApiClient {
  return createClient<paths>({
    baseUrl: `${apiUrl}/v1`,
    headers: accessToken === undefined ? {} : { Authorization: `Bearer ${accessToken}` },
    fetch: (request) => fetch(request, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }),
  });
}
