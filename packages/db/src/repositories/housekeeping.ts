import { type Expression, sql } from 'kysely';
import type { Db } from '../schema';
import { type Statement, secondsAgo, secondsFromNow, statement } from '../sql';
import { AUDIT_RETENTION_DAYS, removeOldAuditEvents } from './audit-events';
import { EVENT_RETENTION_DAYS, removeOldChanges, sequenceChanges } from './change-events';
import { IDEMPOTENCY_TTL_SECONDS } from './idempotency';

/**
 * A request budget's window is one minute; one that ended this long ago is read by no instance
 * (each keeps only the current window and the one before it).
 */
export const BUDGET_WINDOW_RETENTION_SECONDS = 120;

/**
 * Claims this period of a clean-up job: true for exactly one caller per period, whatever the
 * number of instances asking. The first claim ever inserts the row; later ones move `next_run_at`
 * on only if it is due (the row lock makes a concurrent claimer re-check against the moved value).
 * Due and next are measured on the database's clock.
 */
export async function claimHousekeeping(db: Db, job: string, periodSeconds: number): Promise<boolean> {
  const { rows } = await claimStatement.run(db, { job, periodSeconds });
  return rows.length === 1;
}

const claimStatement = statement((db, p: { job: string; periodSeconds: number }) =>
  db
    .insertInto('housekeeping')
    .values({ job: p.job, next_run_at: secondsFromNow(p.periodSeconds), last_run_at: sql`now()` })
    .onConflict((oc) =>
      oc
        .column('job')
        .doUpdateSet({ next_run_at: (eb) => eb.ref('excluded.next_run_at'), last_run_at: sql`now()` })
        .where('housekeeping.next_run_at', '<=', sql<Date>`now()`),
    )
    .returning('job'),
);

/** Brings the job's next run forward (a run that hit its bound left work behind). */
export async function hurryHousekeeping(db: Db, job: string, seconds: number): Promise<void> {
  await hurryStatement.run(db, { job, inSeconds: seconds });
}

const hurryStatement = statement((db, p: { job: string; inSeconds: number }) =>
  db
    .updateTable('housekeeping')
    .set({ next_run_at: sql`least(next_run_at, ${secondsFromNow(p.inSeconds)})` })
    .where('job', '=', p.job),
);

export async function recordHousekeeping(db: Db, job: string, removed: number): Promise<void> {
  await recordStatement.run(db, { job, removed });
}

const recordStatement = statement((db, p: { job: string; removed: number }) =>
  db.updateTable('housekeeping').set({ last_removed: p.removed }).where('job', '=', p.job),
);

/** What one clean-up run removed, per kind of record. */
export interface Removed {
  sessions: number;
  refreshTokens: number;
  throttleWindows: number;
  loginFailures: number;
  idempotencyKeys: number;
  budgetWindows: number;
  attemptWindows: number;
  passwordResets: number;
  auditEvents: number;
  changeEvents: number;
  abandonedImports: number;
  webhookDeliveries: number;
  readPositions: number;
}

/**
 * Removes what no request can use any more, at most `limit` rows of each kind, oldest first by
 * the database's clock:
 * - sessions that expired or were revoked (their refresh tokens go with them);
 * - refresh tokens past their own expiry. A spent (rotated) token is kept until then on purpose:
 *   presenting it again is how a stolen copy is detected (the session is revoked), and the owner
 *   of a copy may come back with it any time until it would have expired;
 * - throttle windows that ended, and failures recorded by the release before the throttle table;
 * - Idempotency-Key records past their 24 hours, and request-budget windows that ended;
 * - sign-up and reset-request windows that ended, and password reset tokens past their expiry
 *   (used or not: a spent one is refused as an unknown one is);
 * - audit events older than `auditRetentionDays` (default AUDIT_RETENTION_DAYS);
 * - change-feed events older than `eventRetentionDays` (default EVENT_RETENTION_DAYS), oldest
 *   position first (the feed's horizon moves with them), after numbering what committed;
 * - webhook deliveries done with (succeeded or failed) older than `eventRetentionDays`, as the
 *   events they carried;
 * - imports whose file stopped arriving an hour ago (its request died with its instance), with
 *   the pieces kept of it;
 * - read positions (read-your-writes on replicas) written over an hour ago: any replica close
 *   enough to be read from has replayed them.
 */
export async function removeExpired(
  db: Db,
  args: {
    limit: number;
    throttleWindowSeconds: number;
    auditRetentionDays?: number | undefined;
    eventRetentionDays?: number | undefined;
  },
): Promise<Removed> {
  const sessions = await deleted(db, removeSessions, args);
  const refreshTokens = await deleted(db, removeRefreshTokens, args);
  const throttleWindows = await deleted(db, removeThrottleWindows, args);
  const loginFailures = await deleted(db, removeLoginFailures, args);
  const idempotencyKeys = await deleted(db, removeIdempotencyKeys, args);
  const budgetWindows = await deleted(db, removeBudgetWindows, args);
  const attemptWindows = await deleted(db, removeAttemptWindows, args);
  const passwordResets = await deleted(db, removePasswordResets, args);
  const abandonedImports = await deleted(db, removeAbandonedImports, args);
  const readPositions = await deleted(db, removeReadPositions, args);
  const auditEvents = await removeOldAuditEvents(db, {
    retentionDays: args.auditRetentionDays ?? AUDIT_RETENTION_DAYS,
    limit: args.limit,
  });
  // Numbered first, so a feed nobody reads keeps no unnumbered backlog: up to 250,000 events a
  // run (5,000 per transaction), more than a busy catalogue writes between two runs.
  await sequenceChanges(db, 50);
  const changeEvents = await removeOldChanges(db, {
    retentionDays: args.eventRetentionDays ?? EVENT_RETENTION_DAYS,
    limit: args.limit,
  });
  const webhookDeliveries = await deleted(db, removeOldDeliveries, {
    ...args,
    retentionDays: args.eventRetentionDays ?? EVENT_RETENTION_DAYS,
  });
  return {
    sessions,
    refreshTokens,
    throttleWindows,
    loginFailures,
    idempotencyKeys,
    budgetWindows,
    attemptWindows,
    passwordResets,
    auditEvents,
    changeEvents,
    abandonedImports,
    webhookDeliveries,
    readPositions,
  };
}

type RemoveArgs = { limit: number; throttleWindowSeconds: number };

/** `= any(array(subquery))`: the keys a bounded subquery picked, evaluated once before the delete. */
const anyOf = (subquery: Expression<unknown>) => sql<string>`any(array(${subquery}))`;

/** The oldest `limit` of them is picked by id, and the condition re-checked on the rows deleted. */
const removeSessions = statement((db, p: RemoveArgs) => {
  const dead = sql<boolean>`(expires_at < now() or revoked_at is not null)`;
  return db
    .deleteFrom('sessions')
    .where('id', '=', anyOf(db.selectFrom('sessions').select('id').where(dead).limit(p.limit)))
    .where(dead);
});

const removeRefreshTokens = statement((db, p: RemoveArgs) =>
  db
    .deleteFrom('refresh_tokens')
    .where(
      'token_hash',
      '=',
      anyOf(
        db
          .selectFrom('refresh_tokens')
          .select('token_hash')
          .where('expires_at', '<', sql<Date>`now()`)
          .limit(p.limit),
      ),
    ),
);

const removeThrottleWindows = statement((db, p: RemoveArgs) => {
  const ended = sql<boolean>`window_started_at <= ${secondsAgo(p.throttleWindowSeconds)}`;
  return db
    .deleteFrom('login_throttle')
    .where((eb) =>
      eb(
        eb.refTuple('scope', 'subject'),
        'in',
        eb
          .selectFrom('login_throttle')
          .select(['scope', 'subject'])
          .where(ended)
          .limit(p.limit)
          .$asTuple('scope', 'subject'),
      ),
    )
    .where(ended);
});

const removeLoginFailures = statement((db, p: RemoveArgs) =>
  db
    .deleteFrom('login_failures')
    .where(
      'id',
      '=',
      anyOf(
        db
          .selectFrom('login_failures')
          .select('id')
          .where('created_at', '<=', secondsAgo(p.throttleWindowSeconds))
          .limit(p.limit),
      ),
    ),
);

const removeIdempotencyKeys = statement((db, p: RemoveArgs) => {
  const expired = sql<boolean>`created_at <= ${secondsAgo(IDEMPOTENCY_TTL_SECONDS)}`;
  return db
    .deleteFrom('idempotency_keys')
    .where((eb) =>
      eb(
        eb.refTuple('caller', 'key'),
        'in',
        eb
          .selectFrom('idempotency_keys')
          .select(['caller', 'key'])
          .where(expired)
          .limit(p.limit)
          .$asTuple('caller', 'key'),
      ),
    )
    .where(expired);
});

const removeBudgetWindows = statement((db, p: RemoveArgs) => {
  const ended = sql<boolean>`window_start <= ${secondsAgo(BUDGET_WINDOW_RETENTION_SECONDS)}`;
  return db
    .deleteFrom('request_budgets')
    .where((eb) =>
      eb(
        eb.refTuple('caller', 'window_start'),
        'in',
        eb
          .selectFrom('request_budgets')
          .select(['caller', 'window_start'])
          .where(ended)
          .limit(p.limit)
          .$asTuple('caller', 'window_start'),
      ),
    )
    .where(ended);
});

const removeAttemptWindows = statement((db, p: RemoveArgs) => {
  const ended = sql<boolean>`window_ends_at <= now()`;
  return db
    .deleteFrom('attempt_windows')
    .where((eb) =>
      eb(
        eb.refTuple('scope', 'subject'),
        'in',
        eb
          .selectFrom('attempt_windows')
          .select(['scope', 'subject'])
          .where(ended)
          .limit(p.limit)
          .$asTuple('scope', 'subject'),
      ),
    )
    .where(ended);
});

const removePasswordResets = statement((db, p: RemoveArgs) =>
  db
    .deleteFrom('password_resets')
    .where(
      'token_hash',
      '=',
      anyOf(
        db
          .selectFrom('password_resets')
          .select('token_hash')
          .where('expires_at', '<=', sql<Date>`now()`)
          .limit(p.limit),
      ),
    ),
);

const removeOldDeliveries = statement((db, p: RemoveArgs & { retentionDays: number }) =>
  db
    .deleteFrom('webhook_deliveries')
    .where(
      'id',
      '=',
      anyOf(
        db
          .selectFrom('webhook_deliveries')
          .select('id')
          .where('status', '<>', 'pending')
          .where('created_at', '<', sql<Date>`now() - make_interval(days => ${p.retentionDays})`)
          .limit(p.limit),
      ),
    ),
);

const removeAbandonedImports = statement((db, p: RemoveArgs) =>
  db
    .deleteFrom('imports')
    .where(
      'id',
      '=',
      anyOf(
        db
          .selectFrom('imports')
          .select('id')
          .where('status', '=', 'receiving')
          .where('created_at', '<', sql<Date>`now() - interval '1 hour'`)
          .limit(p.limit),
      ),
    ),
);

const removeReadPositions = statement((db, p: RemoveArgs) =>
  db
    .deleteFrom('read_positions')
    .where(
      'user_id',
      '=',
      anyOf(
        db
          .selectFrom('read_positions')
          .select('user_id')
          .where('written_at', '<', sql<Date>`now() - interval '1 hour'`)
          .limit(p.limit),
      ),
    ),
);

async function deleted<A extends RemoveArgs>(
  db: Db,
  remove: Statement<A, unknown>,
  args: A,
): Promise<number> {
  const result = await remove.run(db, args);
  return Number(result.numAffectedRows ?? 0n);
}
