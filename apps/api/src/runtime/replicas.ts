import type { Logger } from '@music/api-router';
import { type Database, ReadRouter } from '@music/db';

/**
 * The read replicas' router (DATABASE_READ_URLS), checked from now on; none without replicas.
 * A replica down at start-up is not an error: the primary serves until it answers.
 */
export async function startReads(
  database: Database,
  maxLagSeconds: number,
  log: Logger,
): Promise<ReadRouter | undefined> {
  if (database.replicas.length === 0) return undefined;
  const router = new ReadRouter({
    primary: database.db,
    replicas: database.replicas,
    maxLagSeconds,
    onChange: (status, reason) =>
      status.up
        ? log.info('read replica in use', { replica: status.name })
        : log.warn('read replica not in use; its reads go to the primary', { replica: status.name, reason }),
  });
  await router.start();
  return router;
}
