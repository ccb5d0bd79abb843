import http from 'node:http';
import { expect, type Page, type Response, test } from '@playwright/test';
import { ADMIN } from '../playwright.config';
import { signIn } from './steps';

/**
 * The console's edge: every page answers with a Content-Security-Policy whose nonce is on the
 * page's own scripts, and loads without a violation; and a browser cannot pick the address the
 * API throttles its sign-ins by with an X-Forwarded-For of its own (console-server/forwarded.ts).
 */

/** Violations the page reports, by event and in the console. */
function recordViolations(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (message) => {
    if (/content security policy/i.test(message.text())) seen.push(message.text());
  });
  page.on('pageerror', (error) => {
    if (/content security policy/i.test(error.message)) seen.push(error.message);
  });
  return seen;
}

async function violationEvents(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? []);
}

/** The response's policy, checked for what every page's must say; returns its script nonce. */
async function checkPolicy(response: Response | null): Promise<string> {
  expect(response).not.toBeNull();
  const headers = response!.headers();
  const policy = headers['content-security-policy'] ?? '';
  expect(policy).toContain("frame-ancestors 'none'");
  expect(policy).toContain("object-src 'none'");
  const scriptSrc = policy.split(';').find((d) => d.trim().startsWith('script-src')) ?? '';
  expect(scriptSrc).not.toContain("'unsafe-inline'");
  const nonce = /'nonce-([^']+)'/.exec(scriptSrc)?.[1];
  expect(nonce, policy).toBeTruthy();
  // Next put the nonce on the page's own scripts (the inline ones could not run without it).
  expect(await response!.text()).toContain(`nonce="${nonce}"`);
  // Plain http: no HSTS (a browser would ignore it, and it would wrongly pin a plain-http host).
  expect(headers['strict-transport-security']).toBeUndefined();
  return nonce!;
}

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => {
      seen.push(`${event.violatedDirective} ${event.blockedURI}`);
    });
  });
});

test('sign-in, sign-up, a console page and the 404 page carry the policy and load without a violation', async ({
  page,
}) => {
  const violations = recordViolations(page);
  const nonces = new Set<string>();
  for (const [path, title] of [
    ['/sign-in', 'Sign in · Music Catalogue'],
    ['/sign-up', 'Create an account · Music Catalogue'],
  ] as const) {
    nonces.add(await checkPolicy(await page.goto(path)));
    // The page's scripts ran: React answers a click.
    await page.getByRole('button', { name: 'Show password' }).first().click();
    await expect(page.getByRole('button', { name: 'Hide password' }).first()).toBeVisible();
    await expect(page).toHaveTitle(title);
    expect(await violationEvents(page), path).toEqual([]);
  }
  await signIn(page, ADMIN);
  nonces.add(await checkPolicy(await page.goto('/users')));
  // The list came through the console's API route: the page's own calls are allowed.
  await expect(page.getByRole('cell', { name: ADMIN.email })).toBeVisible();
  expect(await violationEvents(page), '/users').toEqual([]);
  const missing = await page.goto('/no-such-page-security');
  expect(missing?.status()).toBe(404);
  nonces.add(await checkPolicy(missing));
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  expect(await violationEvents(page), '404').toEqual([]);
  expect(violations).toEqual([]);
  // A fresh nonce every time.
  expect(nonces.size).toBe(4);
});

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
}, testInfo) => {
  // No browser in this one, and the API counts the address's failures for the whole run: the
  // phone project would start over the limit.
  test.skip(testInfo.project.name !== 'features', 'runs once, in the features project');
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
