import { expect } from 'vitest';
import type { Client } from './harness';

/** What GET /imports/{id} answers. */
export interface ImportState {
  id: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed';
  dryRun: boolean;
  format: 'csv' | 'ndjson';
  counts: { read: number; created: number; updated: number; unchanged: number; failed: number };
  errors: Array<{ line: number; field: string; message: string }>;
  failure: string | null;
}

/** POSTs a file to /imports; returns the import's id (or the refusal's status when `expect` is given). */
export async function importFile(
  api: Client,
  who: { token: string },
  body: string,
  type = 'text/csv',
  query = '',
  status = 202,
): Promise<string> {
  const res = await api.request<ImportState>('POST', `/imports${query}`, {
    token: who.token,
    rawBody: body,
    headers: { 'content-type': type },
  });
  expect(res.status, res.text).toBe(status);
  if (status !== 202) return '';
  expect(res.body.status).toBe('queued');
  return res.body.id;
}

/** Follows an import until it ends (succeeded or failed), within `ms`. */
export async function waitForImport(
  api: Client,
  who: { token: string },
  id: string,
  ms = 30_000,
): Promise<ImportState> {
  const deadline = Date.now() + ms;
  for (;;) {
    const res = await api.request<ImportState>('GET', `/imports/${id}`, { token: who.token });
    expect(res.status, res.text).toBe(200);
    if (res.body.status === 'succeeded' || res.body.status === 'failed') return res.body;
    if (Date.now() > deadline) throw new Error(`import ${id} still ${res.body.status} after ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
