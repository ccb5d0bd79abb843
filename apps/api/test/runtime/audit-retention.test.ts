import { ageAuditEvents } from '@music/db/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestApi } from '../support/harness';

// No clean-up on this instance: the sibling started later, with its own retention, runs it.
const api = await startTestApi({ HOUSEKEEPING_INTERVAL_SECONDS: 0 });
afterAll(() => api.close());

describe('audit retention', () => {
  it('removes events older than AUDIT_RETENTION_DAYS and keeps younger ones', async () => {
    const old = await api.signUp();
    const young = await api.signUp();
    const db = api.database.db;
    const eventsOf = async (userId: string) =>
      (await db.selectFrom('audit_events').select('id').where('target_id', '=', userId).execute()).map(
        (row) => row.id,
      );
    const [oldEvent] = await eventsOf(old.id);
    const [youngEvent] = await eventsOf(young.id);
    await ageAuditEvents(db, [oldEvent!], 3 * 86_400);
    await ageAuditEvents(db, [youngEvent!], 86_400);
    await api.startSibling({ HOUSEKEEPING_INTERVAL_SECONDS: 1, AUDIT_RETENTION_DAYS: 2 });
    const deadline = Date.now() + 15_000;
    while ((await eventsOf(old.id)).length > 0) {
      if (Date.now() > deadline) throw new Error('timed out waiting for the clean-up');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await eventsOf(young.id)).toEqual([youngEvent]);
  });
});
