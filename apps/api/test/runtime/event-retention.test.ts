import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { error, makeSong } from '../support/catalogue';
import { startTestApi } from '../support/harness';

// No clean-up on this instance: the sibling started later, with its own retention, runs it.
const api = await startTestApi({ HOUSEKEEPING_INTERVAL_SECONDS: 0 });
afterAll(() => api.close());

interface FeedPage {
  data: { id: string; type: string; resource: { id: string } }[];
  nextCursor: string;
}

describe('change-feed retention', () => {
  it('removes events older than EVENT_RETENTION_DAYS; an older cursor is answered 410 GONE', async () => {
    const admin = await api.signUp('admin');
    const feed = (query = '') =>
      api.request<FeedPage>('GET', `/events?limit=1000${query}`, { token: admin.token });
    const before = await feed();
    expect(before.status).toBe(200);
    const old = await makeSong(api, admin, { title: 'Old news' });
    const young = await makeSong(api, admin, { title: 'Still news' });
    const db = api.database.db;
    // Every event so far is 40 days old, but the young song's.
    await sql`update change_events set at = at - interval '40 days' where resource_id <> ${young.id}`.execute(
      db,
    );
    const kept = await feed(`&after=${before.body.nextCursor}`);
    expect(kept.body.data.map((e) => e.resource.id)).toEqual([old.id, young.id]);

    await api.startSibling({ HOUSEKEEPING_INTERVAL_SECONDS: 1, EVENT_RETENTION_DAYS: 30 });
    const deadline = Date.now() + 15_000;
    for (;;) {
      const res = await feed(`&after=${before.body.nextCursor}`);
      if (res.status === 410) {
        expect(res.body).toEqual(error('GONE'));
        break;
      }
      if (Date.now() > deadline) throw new Error('timed out waiting for the clean-up');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // From the start: the oldest kept event is the young song's; a cursor at it still reads on.
    const fresh = await feed();
    expect(fresh.body.data.map((e) => e.resource.id)).toEqual([young.id]);
    expect((await feed(`&after=${fresh.body.nextCursor}`)).body.data).toEqual([]);
  });
});
