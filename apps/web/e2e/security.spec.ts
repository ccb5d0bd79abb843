import { expect, type Page, type Response, test } from '@playwright/test';
import { ADMIN } from '../playwright.config';
import { signIn } from './steps';

/**
 * The console's edge: every page answers with a Content-Security-Policy whose nonce is on the
 * page's own scripts, and loads without a violation. (That a browser cannot pick the address the
 * API throttles it by is spoofed-address.spec.ts.)
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
