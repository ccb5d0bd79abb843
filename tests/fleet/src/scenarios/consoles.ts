import { existsSync } from 'node:fs';
import { type Browser, chromium } from '@playwright/test';
import { expect } from 'vitest';
import { type HAProxy, startHaproxy } from '../haproxy';
import { consoleInstance } from '../instances';
import type { Cleanup } from '../processes';
import type { Fleet } from './fleet';

const CHROMIUM = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (candidate): candidate is string => Boolean(candidate && existsSync(candidate)),
);

export interface Consoles {
  browser: Browser;
  web: HAProxy;
}

/** Two consoles reaching the API through its balancer, HAProxy in front of them, and Chromium. */
export async function startConsoles(fleet: Fleet, cleanup: Cleanup): Promise<Consoles> {
  const consoles = await Promise.all(
    ['web1', 'web2'].map((name) => consoleInstance(name, fleet.balancer.url('api'))),
  );
  cleanup.add(() => Promise.all(consoles.map((c) => c.stop('SIGTERM'))));
  await Promise.all(consoles.map((c) => c.start()));
  const web = await startHaproxy([{ name: 'web', servers: consoles.map((c) => c.port) }]);
  cleanup.add(() => web.stop());
  const browser = await chromium.launch({
    ...(CHROMIUM ? { executablePath: CHROMIUM } : {}),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  cleanup.add(() => browser.close());
  return { browser, web };
}

export async function refreshesInTwoTabsAtOnce(fleet: Fleet, { browser, web }: Consoles): Promise<void> {
  const user = await fleet.signUp('tabs');
  const context = await browser.newContext({ baseURL: web.url('web') });
  try {
    const first = await context.newPage();
    await first.goto('/sign-in');
    await first.getByLabel('Email').fill(user.email);
    await first.getByLabel('Password').fill(user.password);
    await first.getByRole('button', { name: 'Sign in' }).click();
    await first.getByRole('button', { name: 'Sign out' }).waitFor();
    const second = await context.newPage();
    await second.goto('/playlists');
    await second.getByRole('button', { name: 'Sign out' }).waitFor();
    const refreshTokens = new Set<string>();
    for (let round = 0; round < 6; round++) {
      // What the browser does when the access cookie's lifetime ends.
      await context.clearCookies({ name: 'mc_access' });
      await Promise.all([first.reload(), second.reload()]);
      for (const page of [first, second]) {
        await page.getByRole('button', { name: 'Sign out' }).waitFor({ timeout: 15_000 });
        expect(page.url()).not.toContain('/sign-in');
      }
      const cookies = await context.cookies();
      const refresh = cookies.find((c) => c.name === 'mc_refresh')?.value;
      expect(refresh).toBeTruthy();
      refreshTokens.add(refresh!);
    }
    // Each round rotated the refresh token, and the session is still live on the API.
    expect(refreshTokens.size).toBe(6);
    const third = await context.newPage();
    await third.goto('/songs');
    await third.getByRole('button', { name: 'Sign out' }).waitFor();
    expect(third.url()).not.toContain('/sign-in');
    const { rows } = await fleet.onDatabase((db) =>
      db.query<{ revoked: number }>(
        'select count(*)::int as revoked from sessions where user_id = $1 and revoked_at is not null',
        [user.id],
      ),
    );
    expect(rows[0]!.revoked).toBe(0);
  } finally {
    await context.close();
  }
}
