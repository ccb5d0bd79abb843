/**
 * The API straight from the test (not through the console): the fastest way for a spec to make
 * the records it needs. The browser suite's API listens on E2E_API_PORT (playwright.config.ts).
 */
export const API = `http://127.0.0.1:${process.env.E2E_API_PORT ?? 4310}/v1`;

/** A call to `/v1`; throws with the answer's text on anything but 2xx. No body (204, 202): undefined. */
export async function apiCall<T>(
  method: string,
  path: string,
  token: string | null,
  body?: unknown,
): Promise<T> {
  const res = await fetch(`${API}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  const text = await res.text();
  return (text === '' ? undefined : JSON.parse(text)) as T;
}

/** An access token for these credentials. */
export async function apiLogin({ email, password }: { email: string; password: string }): Promise<string> {
  return (await apiCall<{ accessToken: string }>('POST', '/auth/login', null, { email, password }))
    .accessToken;
}

/** A short random tag, so a spec's records have names of their own in the shared database. */
export const uniqueSuffix = () => Math.random().toString(36).slice(2, 8);
