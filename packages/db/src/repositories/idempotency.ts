import { sql } from 'kysely';
import type { Db } from '../schema';
import { secondsAgo, statement } from '../sql';

/** How long a key is remembered (version 1.1: a repeat within 24 hours gets the first answer). */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;

/**
 * How long a `pending` claim holds its key. A request cannot run this long (the HTTP server ends
 * it after 30 s, statements after 15 s), so a claim this old was left by an instance that died
 * mid-request: the key is free again instead of answering 409 for a day.
 */
export const IDEMPOTENCY_LEASE_SECONDS = 120;

/** One request's claim on its key (a type, not an interface: statement parameters are records). */
export type IdempotencyClaim = {
  caller: string;
  key: string;
  method: string;
  path: string;
  bodyHash: string;
  /** Unique per claim: only this claim may complete or release the row. */
  attempt: string;
};

/** What is stored under a key someone else claimed. */
export interface IdempotencyRecord {
  method: string;
  path: string;
  bodyHash: string;
  state: 'pending' | 'done';
  status: number | null;
  headers: Record<string, string> | null;
  body: string | null;
}

/** The answer stored for a key, once its request succeeded. */
export interface IdempotentAnswer {
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

/**
 * Claims the key for this request: true when it inserted the `pending` row (or took over one
 * that expired, or a pending one whose request died), false when another claim holds it. The
 * primary key decides between simultaneous claimers, on any number of instances: one statement,
 * no lock held across statements (safe behind a transaction-mode pooler).
 */
export async function claimIdempotencyKey(db: Db, claim: IdempotencyClaim): Promise<boolean> {
  const { rows } = await claimStatement.run(db, {
    ...claim,
    ttlSeconds: IDEMPOTENCY_TTL_SECONDS,
    leaseSeconds: IDEMPOTENCY_LEASE_SECONDS,
  });
  return rows.length === 1;
}

type ClaimParams = IdempotencyClaim & { ttlSeconds: number; leaseSeconds: number };

const claimStatement = statement((db, p: ClaimParams) => {
  const fresh = {
    method: p.method,
    path: p.path,
    body_hash: p.bodyHash,
    attempt: p.attempt,
    state: 'pending' as const,
    status: null,
    headers: null,
    body: null,
    created_at: sql<Date>`now()`,
  };
  return db
    .insertInto('idempotency_keys')
    .values({ caller: p.caller, key: p.key, ...fresh })
    .onConflict((oc) =>
      oc
        .columns(['caller', 'key'])
        .doUpdateSet(fresh)
        .where((eb) =>
          eb.or([
            eb('idempotency_keys.created_at', '<=', secondsAgo(p.ttlSeconds)),
            eb.and([
              eb('idempotency_keys.state', '=', 'pending'),
              eb('idempotency_keys.created_at', '<=', secondsAgo(p.leaseSeconds)),
            ]),
          ]),
        ),
    )
    .returning('attempt');
});

/**
 * The live record under a key, or undefined when there is none (never was, released, expired,
 * or a claim abandoned past its lease: a new claim may take it then).
 */
export async function findIdempotencyKey(
  db: Db,
  args: { caller: string; key: string },
): Promise<IdempotencyRecord | undefined> {
  const { rows } = await findStatement.run(db, {
    ...args,
    ttlSeconds: IDEMPOTENCY_TTL_SECONDS,
    leaseSeconds: IDEMPOTENCY_LEASE_SECONDS,
  });
  const row = rows[0];
  if (!row) return undefined;
  return {
    method: row.method,
    path: row.path,
    bodyHash: row.body_hash,
    state: row.state,
    status: row.status,
    headers: row.headers,
    body: row.body,
  };
}

const findStatement = statement(
  (db, p: { caller: string; key: string; ttlSeconds: number; leaseSeconds: number }) =>
    db
      .selectFrom('idempotency_keys')
      .select(['method', 'path', 'body_hash', 'state', 'status', 'headers', 'body'])
      .where('caller', '=', p.caller)
      .where('key', '=', p.key)
      .where('created_at', '>', secondsAgo(p.ttlSeconds))
      .where((eb) => eb.or([eb('state', '=', 'done'), eb('created_at', '>', secondsAgo(p.leaseSeconds))])),
);

/** Stores the answer of the claim that holds the key; false when it no longer holds it. */
export async function completeIdempotencyKey(
  db: Db,
  args: { caller: string; key: string; attempt: string; answer: IdempotentAnswer },
): Promise<boolean> {
  const { caller, key, attempt, answer } = args;
  const result = await completeStatement.run(db, {
    caller,
    key,
    attempt,
    status: answer.status,
    headers: JSON.stringify(answer.headers),
    body: answer.body,
  });
  return Number(result.numAffectedRows ?? 0n) === 1;
}

const completeStatement = statement(
  (
    db,
    p: { caller: string; key: string; attempt: string; status: number; headers: string; body: string | null },
  ) =>
    db
      .updateTable('idempotency_keys')
      .set({ state: 'done', status: p.status, headers: sql<string>`${p.headers}::jsonb`, body: p.body })
      .where('caller', '=', p.caller)
      .where('key', '=', p.key)
      .where('attempt', '=', p.attempt)
      .where('state', '=', 'pending'),
);

/** Gives the key up (the request failed): a later request with it runs afresh. */
export async function releaseIdempotencyKey(
  db: Db,
  args: { caller: string; key: string; attempt: string },
): Promise<void> {
  await releaseStatement.run(db, args);
}

const releaseStatement = statement((db, p: { caller: string; key: string; attempt: string }) =>
  db
    .deleteFrom('idempotency_keys')
    .where('caller', '=', p.caller)
    .where('key', '=', p.key)
    .where('attempt', '=', p.attempt)
    .where('state', '=', 'pending'),
);
