import { codeOf, type Db, isDatabaseUnavailable } from '@music/db';
import type { Context } from './context';
import { AppError } from './errors';
import { keyAccessOf } from './scopes';

/** What the routing reads of a procedure's meta (`Meta` of ./trpc.ts, which uses this file). */
interface RoutedMeta {
  route?: (Parameters<typeof keyAccessOf>[0] & { download?: unknown; reads?: 'primary' }) | undefined;
}

/** What a tRPC middleware's `next()` resolves to. */
interface Result {
  ok: boolean;
  error?: unknown;
}

/** Access that marks a catalogue or playlist read: anyone's reads of shared things. */
const MAY_LAG_ACCESS = new Set(['catalogue:read', 'playlists:read']);
const mayLagOf = new WeakMap<object, boolean>();

/**
 * Whether an operation's answer may be a moment old: the GETs of the catalogue (songs, artists,
 * genres, search) and of playlists, except a file (an export streams for minutes: a replica
 * failing mid-way could not be replaced) and a route that says `reads: 'primary'` (an import's
 * progress, written by a job, not by its reader). Everything else reads the primary: the caller's
 * own account, keys, webhooks, the audit trail and the change feed (whose positions must never go
 * back), and every write with what it reads.
 */
export function mayLag(meta: RoutedMeta | undefined): boolean {
  const route = meta?.route;
  if (!route) return false;
  let known = mayLagOf.get(route);
  if (known === undefined) {
    known =
      route.method === 'GET' &&
      !route.download &&
      route.reads !== 'primary' &&
      MAY_LAG_ACCESS.has(keyAccessOf(route));
    mayLagOf.set(route, known);
  }
  return known;
}

/** Whether a call failed with our 404 (under tRPC's wrapper). */
function isNotFound(error: unknown): boolean {
  let current = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current instanceof AppError) return current.code === 'NOT_FOUND';
    current = current.cause;
  }
  return false;
}

/** The driver's error under tRPC's and our wrappers, if there is one. */
function databaseCauseOf(error: unknown): unknown {
  let current = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (codeOf(current) !== undefined) return current;
    current = current.cause;
  }
  return current;
}

/** 40001 on a standby: a query cancelled by a conflict with recovery (the primary removed rows it was reading). */
const RECOVERY_CONFLICT = '40001';

/**
 * Runs a procedure (`run`, given the handle to read with, or none for the primary's) where its
 * reads belong. A read that may lag goes to a replica when one qualifies (see Reads), and is
 * run again on the primary when the replica fails it for want of the server or by a recovery
 * conflict (a replica going away costs no request), or answers 404 (a record made a moment ago
 * by someone else is found by its id). After a caller's write succeeds, where the
 * primary's WAL stands is recorded for them (read-your-writes). Without replicas, just `run()`.
 */
export async function withReads<R extends Result>(
  ctx: Context,
  meta: RoutedMeta | undefined,
  type: 'query' | 'mutation' | 'subscription',
  run: (db?: Db) => Promise<R>,
): Promise<R> {
  const { reads } = ctx;
  if (!reads) return run();
  if (type === 'mutation') {
    const result = await run();
    if (result.ok && ctx.actor) {
      // The write stands whatever happens here: a position not recorded means the writer's next
      // reads may be served by a replica that lacks it for a moment, which is logged.
      await reads.wrote(ctx.actor.user.id).catch((error: unknown) =>
        ctx.log.warn('read position not recorded', {
          requestId: ctx.requestId,
          error: error instanceof Error ? error.message : String(error),
        }),
      );
    }
    return result;
  }
  if (!mayLag(meta)) return run();
  const replica = await reads.readerFor(ctx.actor?.user.id);
  if (replica) {
    const result = await run(replica.db);
    const cause = result.ok ? undefined : databaseCauseOf(result.error);
    const unavailable = cause !== undefined && isDatabaseUnavailable(cause);
    // A record the replica does not have may have just been made by someone else: asked for by
    // its id, it is looked for on the primary before the answer is a 404. (A list may be a
    // moment old; a record someone was just handed the id of is found.)
    const missing = !result.ok && isNotFound(result.error);
    if (!unavailable && !missing && codeOf(cause) !== RECOVERY_CONFLICT) {
      ctx.observer.routedRead(replica.name);
      return result;
    }
    if (unavailable) reads.failed(replica, cause);
  }
  ctx.observer.routedRead('primary');
  return run();
}
