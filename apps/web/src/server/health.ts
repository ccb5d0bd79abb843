import 'server-only';
import { API_URL } from './api-client';

/** What the API's readiness check said when the page was made, for an admin's home page. */
export interface ApiHealth {
  /** `ok`, `draining` (an instance on its way out), `unavailable` (no answer), or what it said. */
  status: string;
  /** `ok` or `unavailable`: whether the API's database answered; absent without an answer. */
  database?: string;
  /** When it was asked (ISO 8601). */
  checkedAt: string;
}

/**
 * The API's readiness (`GET /v1/health`), asked from the server that renders the page, so it is
 * no call of the browser's. Bounded: an API that does not answer in 3 s is "unavailable".
 */
export async function apiHealth(): Promise<ApiHealth> {
  const checkedAt = new Date().toISOString();
  try {
    const res = await fetch(`${API_URL}/v1/health`, {
      cache: 'no-store',
      signal: AbortSignal.timeout(3_000),
    });
    const body = (await res.json()) as { status?: unknown; database?: unknown };
    return {
      status: typeof body.status === 'string' ? body.status : `HTTP ${res.status}`,
      ...(typeof body.database === 'string' ? { database: body.database } : {}),
      checkedAt,
    };
  } catch {
    return { status: 'unavailable', checkedAt };
  }
}
