import type { Client } from '../support/harness';
import { API_KEY_ROWS } from './authz-api-keys';
import { CATALOGUE_ROWS } from './authz-catalogue';
import { ACCOUNT_ROWS, type Entry, type Input } from './authz-rules';
import { IMPORT_ROWS, WEBHOOK_ROWS } from './authz-webhooks';
import { procedureAt, type Transport, type TrpcClient } from './support';

/**
 * Every row of the authorization matrix, one per procedure (authz-rules.ts, authz-api-keys.ts,
 * authz-catalogue.ts, authz-webhooks.ts), read by the matrix of sessions and by the matrix of API keys.
 */
export const MATRIX: Record<string, Entry> = {
  ...ACCOUNT_ROWS,
  ...API_KEY_ROWS,
  ...CATALOGUE_ROWS,
  ...WEBHOOK_ROWS,
  ...IMPORT_ROWS,
};

/** A procedure called on either transport: on /v1 by its route, the input spread over path, query and body. */
export function sendTo(
  clients: { api: Client; trpc: TrpcClient },
  transport: Transport,
  procedure: string,
  input: Input,
  token: string | undefined,
) {
  if (transport === 'trpc') return clients.trpc.call(procedure, input, token);
  const { route } = procedureAt(procedure);
  const rest: Input = { ...input };
  const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = String(rest[name]);
    delete rest[name];
    return encodeURIComponent(value);
  });
  if (route.upload) {
    // A file as the body (an import), the rest as the query string.
    const { file, ...query } = rest;
    const search = new URLSearchParams(
      Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]),
    ).toString();
    return clients.api.request(route.method, search ? `${path}?${search}` : path, {
      token,
      rawBody: String(file ?? ''),
      headers: { 'content-type': 'text/csv' },
    });
  }
  if (route.method === 'GET' || route.method === 'DELETE') {
    const query = new URLSearchParams(
      Object.entries(rest).flatMap(
        ([k, v]): Array<[string, string]> => (v === undefined ? [] : [[k, String(v)]]),
      ),
    ).toString();
    return clients.api.request(route.method, query ? `${path}?${query}` : path, { token });
  }
  return clients.api.request(route.method, path, { token, body: rest });
}
