import { describe, expect, it } from 'vitest';
import { createSessionFetch, REFRESH_URL, readCookie } from './session-refresh';

/**
 * A browser in miniature: one cookie jar and one lock shared by several "tabs" (session fetches),
 * and a console whose access token is refused until a refresh has happened after it was sent.
 */
function browser(options: { refresh?: 'ok' | 'refused' | 'down' } = {}) {
  let generation = 'g0';
  let accessValidFrom = 1; // the generation an access token must come from to be accepted
  let refreshes = 0;
  let held: Promise<unknown> = Promise.resolve();
  const lock = <T>(_name: string, work: () => Promise<T>): Promise<T> => {
    const run = held.then(work, work);
    held = run.catch(() => undefined);
    return run;
  };
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (String(input) === REFRESH_URL) {
      refreshes++;
      if (options.refresh === 'refused') return new Response('{}', { status: 401 });
      if (options.refresh === 'down') return new Response('{}', { status: 503 });
      generation = `g${refreshes}`;
      return new Response('{}', { status: 200 });
    }
    const current = Number(generation.slice(1));
    return new Response(JSON.stringify({ body: init?.body ?? null }), {
      status: current >= accessValidFrom ? 200 : 401,
    });
  };
  const tab = () => createSessionFetch({ fetch, lock, generation: () => generation });
  return {
    tab,
    refreshes: () => refreshes,
    expire: () => {
      accessValidFrom = Number(generation.slice(1)) + 1;
    },
  };
}

describe('the browser-wide refresh', () => {
  it('refreshes once for many calls of one tab that find the access token refused together', async () => {
    const b = browser();
    const tab = b.tab();
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => tab('/api/trpc/x', { method: 'POST', body: `${i}` })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    expect(b.refreshes()).toBe(1);
    // The retried calls carried their own bodies again.
    expect(await Promise.all(answers.map((a) => a.json()))).toEqual(
      Array.from({ length: 8 }, (_, i) => ({ body: `${i}` })),
    );
  });

  it('refreshes once for several tabs: a tab that finds the generation moved just retries', async () => {
    const b = browser();
    const tabs = [b.tab(), b.tab(), b.tab()];
    for (let round = 1; round <= 4; round++) {
      const answers = await Promise.all(tabs.flatMap((tab) => [tab('/api/trpc/a'), tab('/api/trpc/b')]));
      expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
      expect(b.refreshes()).toBe(round);
      b.expire();
    }
  });

  it('hands back the refusal when the session is over, and the outage when the service is away', async () => {
    const refused = browser({ refresh: 'refused' });
    expect((await refused.tab()('/api/trpc/x')).status).toBe(401);
    expect(refused.refreshes()).toBe(1);
    const down = browser({ refresh: 'down' });
    expect((await down.tab()('/api/trpc/x')).status).toBe(503);
  });

  it('reads one cookie out of document.cookie', () => {
    expect(readCookie('a=1; mc_session=abc%3D; b=2', 'mc_session')).toBe('abc=');
    expect(readCookie('a=1', 'mc_session')).toBeUndefined();
    expect(readCookie('', 'mc_session')).toBeUndefined();
    expect(readCookie('mc_session=%E0%A4%A', 'mc_session')).toBe('%E0%A4%A');
  });
});
