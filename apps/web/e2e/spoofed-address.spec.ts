import http from 'node:http';
import { expect, test } from '@playwright/test';

/**
 * A browser cannot pick the address the API throttles its sign-ins by with an X-Forwarded-For of
 * its own (console-server/forwarded.ts). No browser is needed, and the API counts the address's
 * failures for the whole run: playwright.config.ts runs this file once, in the desktop features
 * project (a second project would start over the limit).
 */

/** A POST to the console from the loopback address `localAddress` (not the suite's 127.0.0.1). */
function postFrom(
  localAddress: string,
  url: URL,
  body: object,
  headers: Record<string, string>,
): Promise<{ status: number; retryAfter: string | undefined }> {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        localAddress,
        headers: {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(text)),
          origin: url.origin,
          ...headers,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => {
          const retryAfter = res.headers['retry-after'];
          resolve({
            status: res.statusCode ?? 0,
            retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
          });
        });
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

const randomAddress = () =>
  `198.51.100.${Math.floor(Math.random() * 254) + 1}, 203.0.113.${Math.floor(Math.random() * 254) + 1}`;

test('a browser that names its own X-Forwarded-For is still throttled by its own address', async ({
  baseURL,
}) => {
  test.setTimeout(180_000);
  const url = new URL('/api/session', baseURL);
  const tag = Math.random().toString(36).slice(2, 8);
  const statuses: number[] = [];
  let last: { status: number; retryAfter: string | undefined } | undefined;
  // The API allows 100 failed sign-ins per client address per 15 minutes
  // (LOGIN_MAX_FAILURES_PER_ADDRESS); every email here is new, so no per-email limit is reached.
  for (let i = 0; i <= 100; i++) {
    last = await postFrom(
      '127.0.0.2',
      url,
      { email: `spoof-${tag}-${i}@e2e.test`, password: 'not-the-password' },
      { 'x-forwarded-for': randomAddress() },
    );
    statuses.push(last.status);
  }
  const tally = statuses.reduce<Record<number, number>>((counts, status) => {
    counts[status] = (counts[status] ?? 0) + 1;
    return counts;
  }, {});
  test.info().annotations.push({ type: 'statuses', description: JSON.stringify(tally) });
  expect(statuses.slice(0, 100), JSON.stringify(tally)).toEqual(Array(100).fill(401));
  expect(statuses[100], JSON.stringify(tally)).toBe(429);
  expect(Number(last?.retryAfter)).toBeGreaterThan(0);
  // The limit is this address's: the suite's own (127.0.0.1) still signs in as before.
  const other = await postFrom(
    '127.0.0.1',
    url,
    { email: `spoof-${tag}-other@e2e.test`, password: 'not-the-password' },
    {},
  );
  expect(other.status).toBe(401);
});
