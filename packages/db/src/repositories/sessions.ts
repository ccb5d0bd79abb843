import { sql } from 'kysely';
import type { Db, Role } from '../schema';
import { secondsAgo, statement } from '../sql';

export async function insertSession(db: Db, session: { id: string; userId: string; expiresAt: Date }) {
  await db
    .insertInto('sessions')
    .values({ id: session.id, user_id: session.userId, expires_at: session.expiresAt })
    .execute();
}

/**
 * A successful sign-in's writes as one atomic statement: the email's throttle window cleared
 * (the account's owner proved themselves; only that email's window), the session and its first
 * refresh token inserted. One round trip on a shared connection instead of
 * a pooled transaction of five.
 */
export async function startSession(
  db: Db,
  args: { sessionId: string; userId: string; expiresAt: Date; refreshTokenHash: string; email: string },
): Promise<void> {
  await startSessionStatement.run(db, args);
}

const startSessionStatement = statement(
  (db, p: { sessionId: string; userId: string; expiresAt: Date; refreshTokenHash: string; email: string }) =>
    db
      .with('cleared', (db) =>
        db.deleteFrom('login_throttle').where('scope', '=', 'email').where('subject', '=', p.email),
      )
      .with('session', (db) =>
        db
          .insertInto('sessions')
          .values({ id: p.sessionId, user_id: p.userId, expires_at: p.expiresAt })
          .returning(['id', 'expires_at']),
      )
      .insertInto('refresh_tokens')
      .columns(['token_hash', 'session_id', 'expires_at'])
      .expression((eb) =>
        eb.selectFrom('session').select([eb.val(p.refreshTokenHash).as('token_hash'), 'id', 'expires_at']),
      ),
);

export interface SessionUser {
  id: string;
  username: string;
  email: string;
  role: Role;
  created_at: Date;
  updated_at: Date;
}

/**
 * The user behind a live session, read fresh on every request: a revoked session, a deleted
 * user or a changed role takes effect on the very next request, on every API instance.
 */
const sessionUserStatement = statement((db, p: { sessionId: string; userId: string }) =>
  db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['u.id', 'u.username', 'u.email', 'u.role', 'u.created_at', 'u.updated_at'])
    .where('s.id', '=', p.sessionId)
    .where('s.user_id', '=', p.userId)
    .where('s.revoked_at', 'is', null)
    .where('s.expires_at', '>', sql<Date>`now()`),
);

export async function findSessionUser(
  db: Db,
  sessionId: string,
  userId: string,
): Promise<SessionUser | undefined> {
  const { rows } = await sessionUserStatement.run(db, { sessionId, userId });
  return rows[0];
}

export async function revokeSession(db: Db, sessionId: string, reason: string): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: new Date(), revoked_reason: reason })
    .where('id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .execute();
}

/**
 * Ends every live session of a user but `keep` (the caller's own, when they changed their own
 * password; null ends them all): their access and refresh tokens are refused from the next
 * request on, on every instance.
 */
export async function revokeOtherSessions(
  db: Db,
  args: { userId: string; keep: string | null; reason: string },
): Promise<number> {
  let query = db
    .updateTable('sessions')
    .set({ revoked_at: sql<Date>`now()`, revoked_reason: args.reason })
    .where('user_id', '=', args.userId)
    .where('revoked_at', 'is', null);
  if (args.keep !== null) query = query.where('id', '!=', args.keep);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function extendSession(db: Db, sessionId: string, expiresAt: Date): Promise<void> {
  await db.updateTable('sessions').set({ expires_at: expiresAt }).where('id', '=', sessionId).execute();
}

export async function insertRefreshToken(
  db: Db,
  token: { hash: string; sessionId: string; expiresAt: Date },
) {
  await db
    .insertInto('refresh_tokens')
    .values({ token_hash: token.hash, session_id: token.sessionId, expires_at: token.expiresAt })
    .execute();
}

export type RefreshOutcome =
  | { kind: 'rotated'; sessionId: string; userId: string }
  | { kind: 'graced'; sessionId: string; userId: string }
  | { kind: 'reused'; sessionId: string }
  | { kind: 'invalid' };

/**
 * Marks a refresh token as used, atomically: of two requests presenting the same token, exactly
 * one sees it unrotated (`rotated`). A token rotated less than `graceSeconds` ago, whose session
 * is live, is `graced`: the same client presenting it again (two workers refreshing at once, an
 * answer lost on the way) gets a new pair in the same session, and the first pair keeps working.
 * Rotated longer ago, it is `reused` (the caller revokes the session: someone replayed it); an
 * unknown, expired or revoked one is `invalid`. Every time is the database's clock.
 */
export async function rotateRefreshToken(db: Db, hash: string, graceSeconds = 0): Promise<RefreshOutcome> {
  const claimed = await db
    .updateTable('refresh_tokens as t')
    .set({ rotated_at: sql<Date>`now()` })
    .from('sessions as s')
    .whereRef('s.id', '=', 't.session_id')
    .where('t.token_hash', '=', hash)
    .where('t.rotated_at', 'is', null)
    .where('t.expires_at', '>', sql<Date>`now()`)
    .where('s.revoked_at', 'is', null)
    .returning(['t.session_id', 's.user_id'])
    .executeTakeFirst();
  if (claimed) return { kind: 'rotated', sessionId: claimed.session_id, userId: claimed.user_id };

  const existing = await db
    .selectFrom('refresh_tokens as t')
    .innerJoin('sessions as s', 's.id', 't.session_id')
    .select([
      't.session_id',
      's.user_id',
      sql<boolean>`t.rotated_at is not null`.as('rotated'),
      sql<boolean>`coalesce(t.rotated_at > ${secondsAgo(graceSeconds)}
        and t.expires_at > now() and s.revoked_at is null, false)`.as('in_grace'),
    ])
    .where('t.token_hash', '=', hash)
    .executeTakeFirst();
  if (!existing?.rotated) return { kind: 'invalid' };
  if (existing.in_grace) return { kind: 'graced', sessionId: existing.session_id, userId: existing.user_id };
  return { kind: 'reused', sessionId: existing.session_id };
}
