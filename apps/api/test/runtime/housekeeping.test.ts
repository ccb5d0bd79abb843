import { afterAll, describe, expect, it } from 'vitest';
import { startTestApi } from '../support/harness';

// No clean-up on this instance: the sibling started after the logout runs it, so the ended
// session is certainly there to be seen before it goes.
const api = await startTestApi({ HOUSEKEEPING_INTERVAL_SECONDS: 0 });
afterAll(() => api.close());

async function until<T>(probe: () => Promise<T | undefined>, ms: number, what: string): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('housekeeping by the service itself', () => {
  it('removes ended sessions and their tokens, and keeps live ones', async () => {
    const user = await api.signUp();
    const ended = await api.signUp();
    expect((await api.request('POST', '/auth/logout', { token: ended.token })).status).toBe(204);
    const db = api.database.db;
    const sessionsOf = (userId: string) =>
      db.selectFrom('sessions').select(['id', 'revoked_at']).where('user_id', '=', userId).execute();
    expect(await sessionsOf(ended.id)).toHaveLength(1);
    await api.startSibling({ HOUSEKEEPING_INTERVAL_SECONDS: 1 });
    await until(
      async () => ((await sessionsOf(ended.id)).length === 0 ? true : undefined),
      15_000,
      'the clean-up',
    );
    const left = await db
      .selectFrom('refresh_tokens')
      .innerJoin('sessions', 'sessions.id', 'refresh_tokens.session_id')
      .select('sessions.user_id')
      .where('sessions.user_id', 'in', [user.id, ended.id])
      .execute();
    expect(left.map((r) => r.user_id)).toEqual([user.id]);
    expect((await api.request('GET', '/auth/me', { token: user.token })).status).toBe(200);
    expect((await api.request('GET', '/auth/me', { token: ended.token })).status).toBe(401);
    const [run] = await db.selectFrom('housekeeping').select(['job', 'last_run_at']).execute();
    expect(run?.job).toBe('remove-expired');
  });
});
