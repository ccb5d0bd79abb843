import { ERROR_CODES } from '@music/api-router/schemas';
import { ACTOR_PASSWORD, createActor, type SignedActor } from '@music/api-router/testing';
import { generateRefreshToken, hashToken } from '@music/auth';
import { type Db, insertRefreshToken, insertSession, passwordResets, uuidv7 } from '@music/db';
import { uniqueEmail } from '../support/harness';
import { insertArtistRow, insertPlaylistRow, insertSongRow, missingId, tokens } from './support';

/**
 * The authorization matrix's vocabulary (callers, outcomes, rules, the world of fixtures) and
 * its rows for the accounts: sign-in, sessions and users. authz-catalogue.ts has the rest.
 *
 * Fixtures are absolute: `user` owns the playlists, `artist` manages the artist `artistA`
 * (whose songs are "theirs"), `admin` is an admin; `otherUser` and `otherArtist` are the same
 * roles without ownership, so "own" vs "other's" is the difference between those rows.
 */

export const ACTORS = ['anonymous', 'user', 'otherUser', 'artist', 'otherArtist', 'admin'] as const;
export type ActorName = (typeof ACTORS)[number];
export type Outcome = 'ok' | 400 | 401 | 403 | 404 | 409 | 422;
/** The error code each status answers with (one code per status in the contract's table). */
export const CODES: Record<number, string> = Object.fromEntries(
  Object.entries(ERROR_CODES).map(([code, { status }]) => [status, code]),
);

export interface World {
  actors: Record<Exclude<ActorName, 'anonymous'>, SignedActor>;
  /** Managed by `artist`. */
  artistA: string;
  /** Managed by `otherArtist`. */
  artistB: string;
}

export type Input = Record<string, unknown>;
export type Rule = Partial<Record<ActorName | 'signedIn' | 'others', Outcome>>;

export interface Target {
  /** Builds the procedure's input (path params included), making the fixtures it needs. */
  input(db: Db, world: World, actor: ActorName): Promise<Input>;
  /** The expected outcome per actor: an actor's own key, else `others`; `signedIn` for all but anonymous. */
  expect: Rule;
  /**
   * Where an API key with the right scope gets another answer than its owner's session: an
   * email or a password it may not change.
   */
  keyExpect?: Rule;
}

export interface Entry {
  targets: Record<string, Target>;
  /** Success changes the actors themselves (deletes or logs them out): every cell gets a new world. */
  freshWorld?: boolean;
}

export function outcomeFor(rule: Rule, actor: ActorName, isPublic: boolean): Outcome {
  if (rule[actor] !== undefined) return rule[actor]!;
  if (actor === 'anonymous') return isPublic ? (rule.others ?? 'ok') : 401;
  return rule.signedIn ?? rule.others ?? 'ok';
}

export const same = (input: Input) => async () => input;
export const anyone: Rule = { signedIn: 'ok' };
export const adminOnly: Rule = { admin: 'ok', others: 403 };
export const userOrAdmin: Rule = { user: 'ok', admin: 'ok', others: 403 };
export const artistOrAdmin: Rule = { artist: 'ok', admin: 'ok', others: 403 };
export const notFound: Rule = { signedIn: 404 };

export const artist = (input: (db: Db, w: World) => Promise<Input>, rule: Rule): Target => ({
  input,
  expect: rule,
});

/** A fresh artist managed by `artist`. */
export const managedArtist = (db: Db, w: World) => insertArtistRow(db, w.actors.artist.user.id);
/** A fresh song of artistA (so `artist` may change it). */
export const ownSong = (db: Db, w: World) => insertSongRow(db, [w.artistA]);
export const privatePlaylist = (db: Db, w: World, songIds: string[] = []) =>
  insertPlaylistRow(db, w.actors.user.user.id, { isPublic: false, songIds });
export const publicPlaylist = (db: Db, w: World, songIds: string[] = []) =>
  insertPlaylistRow(db, w.actors.user.user.id, { isPublic: true, songIds });

const userBody = (w: World) => ({
  username: 'Renamed',
  email: w.actors.user.user.email,
  password: ACTOR_PASSWORD,
});

let counter = 0;
export function newUser() {
  counter++;
  return {
    username: `Matrix ${counter}`,
    email: uniqueEmail('matrix'),
    password: 'a-good-password',
  };
}

async function refreshTokenFor(db: Db, userId: string): Promise<string> {
  const sessionId = uuidv7();
  const expiresAt = new Date(Date.now() + 86_400_000);
  await insertSession(db, { id: sessionId, userId, expiresAt });
  const token = generateRefreshToken();
  await insertRefreshToken(db, { hash: hashToken(token), sessionId, expiresAt });
  return token;
}

async function resetTokenFor(db: Db, userId: string): Promise<string> {
  const token = generateRefreshToken();
  await passwordResets.createResetForUser(db, { userId, tokenHash: hashToken(token), ttlSeconds: 1800 });
  return token;
}

export async function makeWorld(db: Db): Promise<World> {
  const [user, otherUser, artistAccount, otherArtist, admin] = await Promise.all([
    createActor(db, 'user', tokens),
    createActor(db, 'user', tokens),
    createActor(db, 'artist', tokens),
    createActor(db, 'artist', tokens),
    createActor(db, 'admin', tokens),
  ]);
  const [artistA, artistB] = await Promise.all([
    insertArtistRow(db, artistAccount.user.id),
    insertArtistRow(db, otherArtist.user.id),
  ]);
  return { actors: { user, otherUser, artist: artistAccount, otherArtist, admin }, artistA, artistB };
}

/** One row per account procedure. */
export const ACCOUNT_ROWS: Record<string, Entry> = {
  'auth.login': {
    targets: {
      'valid credentials': {
        input: async (_db, w) => ({ email: w.actors.otherUser.user.email, password: ACTOR_PASSWORD }),
        expect: { others: 'ok' },
      },
      'wrong password': {
        input: async (_db, w) => ({ email: w.actors.otherUser.user.email, password: 'wrong-password' }),
        expect: { others: 401, signedIn: 401 },
      },
    },
  },
  'auth.refresh': {
    targets: {
      'a live refresh token': {
        input: async (db, w) => ({ refreshToken: await refreshTokenFor(db, w.actors.otherUser.user.id) }),
        expect: { others: 'ok' },
      },
      'an unknown token': {
        input: same({ refreshToken: 'unknown-token' }),
        expect: { others: 401, signedIn: 401 },
      },
    },
  },
  'auth.logout': { freshWorld: true, targets: { 'own session': { input: same({}), expect: anyone } } },
  'auth.requestPasswordReset': {
    targets: {
      // Public, and the same answer whether the email has an account (an unknown one stores nothing).
      "a user's email": {
        input: async (_db, w) => ({ email: w.actors.otherUser.user.email }),
        expect: { others: 'ok' },
      },
    },
  },
  'auth.resetPassword': {
    freshWorld: true,
    targets: {
      'a live reset token': {
        input: async (db, w) => ({
          token: await resetTokenFor(db, w.actors.otherUser.user.id),
          password: 'a-new-password',
        }),
        expect: { others: 'ok' },
      },
      'an unknown token': {
        input: same({ token: 'unknown-token', password: 'a-new-password' }),
        expect: { others: 422, signedIn: 422 },
      },
    },
  },
  'auth.me': { targets: { self: { input: same({}), expect: anyone } } },

  'users.list': { targets: { all: { input: same({}), expect: adminOnly } } },
  'auditEvents.list': {
    targets: {
      all: { input: same({}), expect: adminOnly },
      'by actor': { input: async (_db, w) => ({ actorId: w.actors.user.user.id }), expect: adminOnly },
    },
  },
  'events.list': { targets: { all: { input: same({}), expect: anyone } } },
  'users.profiles': {
    targets: {
      all: { input: same({}), expect: anyone },
      'by ids': {
        input: async (_db, w) => ({ ids: `${w.actors.user.user.id},${w.actors.admin.user.id}` }),
        expect: anyone,
      },
    },
  },
  'users.create': {
    targets: {
      'role user': { input: async () => newUser(), expect: { others: 'ok' } },
      'role artist': {
        input: async () => ({ ...newUser(), role: 'artist' }),
        expect: { admin: 'ok', others: 403 },
      },
      'role admin': {
        input: async () => ({ ...newUser(), role: 'admin' }),
        expect: { admin: 'ok', others: 403 },
      },
    },
  },
  'users.get': {
    targets: {
      "user's record": { input: async (_db, w) => ({ userId: w.actors.user.user.id }), expect: userOrAdmin },
      missing: { input: async () => ({ userId: missingId() }), expect: { admin: 404, others: 403 } },
      malformed: { input: same({ userId: 'not-a-uuid' }), expect: { admin: 404, others: 403 } },
    },
  },
  'users.update': {
    freshWorld: true,
    targets: {
      "user's record": {
        input: async (_db, w) => ({ userId: w.actors.user.user.id, ...userBody(w) }),
        expect: userOrAdmin,
      },
      "user's record, role admin": {
        input: async (_db, w) => ({ userId: w.actors.user.user.id, ...userBody(w), role: 'admin' }),
        expect: { admin: 'ok', others: 403 },
      },
      missing: {
        input: async (_db, w) => ({ userId: missingId(), ...userBody(w), email: 'x@example.com' }),
        expect: { admin: 404, others: 403 },
      },
    },
  },
  'users.patch': {
    freshWorld: true,
    targets: {
      "user's record, renamed": {
        input: async (_db, w) => ({ userId: w.actors.user.user.id, username: 'Patched' }),
        expect: userOrAdmin,
      },
      "user's record, role admin": {
        input: async (_db, w) => ({ userId: w.actors.user.user.id, role: 'admin' }),
        expect: { admin: 'ok', others: 403 },
      },
      "user's record, new password with the current one": {
        input: async (_db, w) => ({
          userId: w.actors.user.user.id,
          password: 'a-brand-new-password',
          currentPassword: ACTOR_PASSWORD,
        }),
        expect: userOrAdmin,
        keyExpect: { signedIn: 403 },
      },
      "user's record, new email without the current password": {
        input: async (_db, w) => ({ userId: w.actors.user.user.id, email: uniqueEmail('patched') }),
        // Needed for your own account only: an admin changes another user's email without it.
        expect: { user: 422, admin: 'ok', others: 403 },
        keyExpect: { signedIn: 403 },
      },
      missing: {
        input: async () => ({ userId: missingId(), username: 'Patched' }),
        expect: { admin: 404, others: 403 },
      },
    },
  },
  'users.passwordResetLink': {
    targets: {
      "user's record": { input: async (_db, w) => ({ userId: w.actors.user.user.id }), expect: adminOnly },
      missing: { input: async () => ({ userId: missingId() }), expect: { admin: 404, others: 403 } },
    },
  },
  'users.setRole': {
    freshWorld: true,
    targets: {
      "user's record": {
        input: async (_db, w) => ({ userId: w.actors.user.user.id, role: 'artist' }),
        expect: adminOnly,
      },
      missing: {
        input: async () => ({ userId: missingId(), role: 'user' }),
        expect: { admin: 404, others: 403 },
      },
      malformed: { input: same({ userId: 'not-a-uuid', role: 'user' }), expect: { admin: 404, others: 403 } },
    },
  },
  'users.delete': {
    freshWorld: true,
    targets: {
      "user's record": { input: async (_db, w) => ({ userId: w.actors.user.user.id }), expect: userOrAdmin },
      missing: { input: async () => ({ userId: missingId() }), expect: { admin: 404, others: 403 } },
      malformed: { input: same({ userId: '1 or 1=1' }), expect: { admin: 404, others: 403 } },
    },
  },
};
