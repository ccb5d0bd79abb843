import { expect } from 'vitest';
import { until } from '../processes';
import type { Fleet } from './fleet';

export async function ridesOutPoolerOutage(fleet: Fleet): Promise<void> {
  const user = await fleet.signUp('outage');
  await fleet.pgbouncer.stop();
  try {
    for (const api of fleet.apis) {
      await until(
        async () => ((await fetch(`${api.url}/v1/health`)).status === 503 ? true : undefined),
        10_000,
        `${api.name} readiness 503`,
      );
      const live = await fetch(`${api.url}/v1/health/live`);
      expect(live.status).toBe(200);
      expect(await live.json()).toEqual({ status: 'ok' });
      const read = await fleet.call('GET', '/auth/me', { token: user.token, base: api.url });
      expect(read.status).toBe(503);
      expect(read.headers.get('retry-after')).toMatch(/^\d+$/);
    }
  } finally {
    await fleet.pgbouncer.start();
  }
  for (const api of fleet.apis) {
    await until(
      async () => ((await fetch(`${api.url}/v1/health`)).status === 200 ? true : undefined),
      15_000,
      `${api.name} ready again`,
    );
    expect((await fleet.call('GET', '/auth/me', { token: user.token, base: api.url })).status).toBe(200);
  }
  // None of them was restarted: still the processes started at the beginning of this scenario.
  for (const api of fleet.apis) expect(api.child().process.exitCode).toBeNull();
}
