import { sql } from 'kysely';
import type { Db } from '../schema';

/** What work an instance may have to do in the background, as one probe sees it. */
export interface BackgroundWork {
  /** Some webhook exists: deliveries may be queued (a ping, a delivery sent again). */
  anyWebhook: boolean;
  /** Some webhook is enabled: new events are to be dispatched. */
  enabledWebhook: boolean;
  /** Some import waits or runs. */
  openImport: boolean;
}

/**
 * The background work there may be, in one query: every instance asks once a second, idle or
 * not, so the webhooks and the imports share the round trip instead of asking one each.
 */
export async function backgroundWork(db: Db): Promise<BackgroundWork> {
  const { rows } = await sql<{ any_webhook: boolean; enabled_webhook: boolean; open_import: boolean }>`select
    exists (select 1 from webhooks) as any_webhook,
    exists (select 1 from webhooks where enabled) as enabled_webhook,
    exists (select 1 from imports where status in ('queued', 'running')) as open_import`.execute(db);
  const row = rows[0];
  return {
    anyWebhook: row?.any_webhook === true,
    enabledWebhook: row?.enabled_webhook === true,
    openImport: row?.open_import === true,
  };
}
