import { createHash } from 'node:crypto';
import { CompiledQuery } from 'kysely';
import PgBoss from 'pg-boss';
import type { SqlExecutor } from './client';
import type { Db } from './schema';

/**
 * Jobs in PostgreSQL, through pg-boss (10.4, the last line that runs on Node 20): its own schema
 * (`pgboss`), its own migrations, made when the queue is first needed. Chosen because it needs
 * nothing that outlives a transaction: jobs are claimed with `FOR UPDATE SKIP LOCKED`, its
 * maintenance and migrations take transaction-scoped advisory locks, it never LISTENs and sends
 * unnamed statements only, so it works unchanged through a transaction-mode pooler; and it runs
 * on the embedded database through the same `SqlExecutor` (one process: the workers run in the
 * API). A job is inserted in the caller's transaction (`send`), so it exists exactly when what
 * it is about does. A job whose worker died (a killed instance) is given back to the queue once
 * it expires, by the maintenance any instance runs, and claimed by another.
 */

export interface QueueOptions {
  /** Attempts after the first when a job fails or its worker dies. */
  retryLimit: number;
  /** Seconds before such a retry. */
  retryDelaySeconds: number;
  /** A job not finished this long after it was claimed is taken as lost and retried. */
  expireInSeconds: number;
}

export interface JobsOptions {
  /** The queues, made when the jobs are first needed. */
  queues: Record<string, QueueOptions>;
  /** How often some instance looks for expired jobs (and archives finished ones). */
  maintenanceSeconds: number;
  onError(error: Error): void;
}

export interface NewJob {
  /** The job's id: a job inserted twice with one id is one job. */
  id: string;
  data: object;
  /** Not run before this many seconds from now. */
  delaySeconds?: number;
}

export interface Jobs {
  /** Makes pg-boss's schema and the queues (once a process; instances may race: it is locked). Not in a transaction. */
  ready(): Promise<void>;
  /** Inserts jobs in `trx`: they exist exactly when it commits. */
  send(trx: Db, queue: string, jobs: readonly NewJob[]): Promise<void>;
  /** Runs `handler` for the queue's jobs, `workers` at a time, each polling every `pollSeconds`. */
  work<T extends object>(
    queue: string,
    options: { workers: number; pollSeconds: number },
    handler: (job: { id: string; data: T }) => Promise<void>,
  ): Promise<void>;
  /** Stops taking jobs; jobs under way get up to `graceMs` to finish, then are given back. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * A job id made from what the job is about (its parts joined with `:`), so the same work queued
 * twice is one job. pg-boss wants a UUID: the SHA-256 of the parts, cut to that shape with its
 * version and variant digits set. Neither the text hashed nor the shape may change: jobs already
 * queued in a running deployment carry these ids, and new ones must match them.
 */
export function derivedJobId(...parts: readonly (string | number)[]): string {
  const hex = createHash('sha256').update(parts.join(':')).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A transaction as pg-boss's `db` option takes it. */
export function executorOf(trx: Db): SqlExecutor {
  return { executeSql: (text, values) => trx.executeQuery(CompiledQuery.raw(text, values ?? [])) };
}

export function createJobs(executor: SqlExecutor, options: JobsOptions): Jobs {
  const boss = new PgBoss({
    db: executor as PgBoss.Db,
    schema: 'pgboss',
    migrate: true,
    supervise: true,
    schedule: false,
    maintenanceIntervalSeconds: options.maintenanceSeconds,
  });
  boss.on('error', options.onError);
  let starting: Promise<void> | undefined;
  let stopped = false;

  const ready = () => {
    if (stopped) return Promise.reject(new Error('the job queue was stopped'));
    starting ??= (async () => {
      await boss.start();
      for (const [name, queue] of Object.entries(options.queues)) {
        await boss.createQueue(name, {
          name,
          retryLimit: queue.retryLimit,
          retryDelay: queue.retryDelaySeconds,
          expireInSeconds: queue.expireInSeconds,
        });
      }
    })().catch((error: unknown) => {
      starting = undefined;
      throw error;
    });
    return starting;
  };

  return {
    ready,
    async send(trx, queue, jobs) {
      if (jobs.length === 0) return;
      const settings = options.queues[queue];
      await boss.insert(
        jobs.map((job) => ({
          id: job.id,
          name: queue,
          data: job.data,
          // The queue's own settings, on each job too: a queue made by an older release keeps its first ones.
          ...(settings
            ? {
                retryLimit: settings.retryLimit,
                retryDelay: settings.retryDelaySeconds,
                expireInSeconds: settings.expireInSeconds,
              }
            : {}),
          ...(job.delaySeconds ? { startAfter: String(job.delaySeconds) } : {}),
        })),
        { db: executorOf(trx) as PgBoss.Db },
      );
    },
    async work<T extends object>(
      queue: string,
      { workers, pollSeconds }: { workers: number; pollSeconds: number },
      handler: (job: { id: string; data: T }) => Promise<void>,
    ) {
      await ready();
      for (let n = 0; n < workers; n++) {
        await boss.work<T>(queue, { batchSize: 1, pollingIntervalSeconds: pollSeconds }, async (batch) => {
          for (const job of batch) await handler(job);
        });
      }
    },
    async stop(graceMs = 10_000) {
      stopped = true;
      if (!starting) return;
      await starting.catch(() => {});
      await boss.stop({ graceful: true, wait: true, timeout: Math.max(1000, graceMs), close: false });
    },
  };
}
