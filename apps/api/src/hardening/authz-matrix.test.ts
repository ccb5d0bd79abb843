import { ACTOR_PASSWORD, createActor, type SignedActor } from '@music/api-router/testing';
import { generateRefreshToken, hashToken } from '@music/auth';
import { type Db, insertRefreshToken, insertSession, uuidv7 } from '@music/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../testing/harness';
import {
  codeOf,
  errorShapeOk,
  insertArtistRow,
  insertPlaylistRow,
  insertSongRow,
  missingId,
  procedureKinds,
  restRoutes,
  type Transport,
  type TrpcClient,
  tokens,
  trpcOf,
  watchWrites,
  writeCount,
} from './support';

/**
 * The authorization matrix: every procedure x every kind of caller x the resources it can be
 * pointed at, on /v1 and on /trpc, each cell asserting the contract's status: no token 401 on
 * a protected operation, a caller without the right 403, a missing or malformed id 404, a
 * duplicate 409.
 * The list of operations comes from the router itself, so an operation added without a row
 * here fails the first test. Refused writes must leave the data exactly as it was.
 *
 * Fixtures are absolute: `user` owns the playlists, `artist` manages the artist `artistA`
 * (whose songs are "theirs"), `admin` is an admin; `otherUser` and `otherArtist` are the same
 * roles without ownership, so "own" vs "other's" is the difference between those rows.
 */

const ACTORS = ['anonymous', 'user', 'otherUser', 'artist', 'otherArtist', 'admin'] as const;
type ActorName = (typeof ACTORS)[number];
type Outcome = 'ok' | 400 | 401 | 403 | 404 | 409 | 422;
const CODES: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  422: 'VALIDATION_FAILED',
};

interface World {
  actors: Record<Exclude<ActorName, 'anonymous'>, SignedActor>;
  /** Managed by `artist`. */
  artistA: string;
  /** Managed by `otherArtist`. */
  artistB: string;
}

type Input = Record<string, unknown>;
type Rule = Partial<Record<ActorName | 'signedIn' | 'others', Outcome>>;

interface Target {
  /** Builds the procedure's input (path params included), making the fixtures it needs. */
  input(db: Db, world: World, actor: ActorName): Promise<Input>;
  /** The expected outcome per actor: an actor's own key, else `others`; `signedIn` for all but anonymous. */
  expect: Rule;
}

interface Entry {
  targets: Record<string, Target>;
  /** Success changes the actors themselves (deletes or logs them out): every cell gets a new world. */
  freshWorld?: boolean;
}

function outcomeFor(rule: Rule, actor: ActorName, isPublic: boolean): Outcome {
  if (rule[actor] !== undefined) return rule[actor]!;
  if (actor === 'anonymous') return isPublic ? (rule.others ?? 'ok') : 401;
  return rule.signedIn ?? rule.others ?? 'ok';
}

const same = (input: Input) => async () => input;
const anyone: Rule = { signedIn: 'ok' };
const adminOnly: Rule = { admin: 'ok', others: 403 };
const userOrAdmin: Rule = { user: 'ok', admin: 'ok', others: 403 };
const artistOrAdmin: Rule = { artist: 'ok', admin: 'ok', others: 403 };
const notFound: Rule = { signedIn: 404 };

const artist = (input: (db: Db, w: World) => Promise<Input>, rule: Rule): Target => ({ input, expect: rule });

/** A fresh artist managed by `artist`. */
const managedArtist = (db: Db, w: World) => insertArtistRow(db, w.actors.artist.user.id);
/** A fresh song of artistA (so `artist` may change it). */
const ownSong = (db: Db, w: World) => insertSongRow(db, [w.artistA]);
const privatePlaylist = (db: Db, w: World, songIds: string[] = []) =>
  insertPlaylistRow(db, w.actors.user.user.id, { isPublic: false, songIds });
const publicPlaylist = (db: Db, w: World, songIds: string[] = []) =>
  insertPlaylistRow(db, w.actors.user.user.id, { isPublic: true, songIds });

const userBody = (w: World) => ({
  username: 'Renamed',
  email: w.actors.user.user.email,
  password: ACTOR_PASSWORD,
});

/** One row per procedure. */
const MATRIX: Record<string, Entry> = {
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
  'auth.me': { targets: { self: { input: same({}), expect: anyone } } },

  'users.list': { targets: { all: { input: same({}), expect: adminOnly } } },
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
  'users.delete': {
    freshWorld: true,
    targets: {
      "user's record": { input: async (_db, w) => ({ userId: w.actors.user.user.id }), expect: userOrAdmin },
      missing: { input: async () => ({ userId: missingId() }), expect: { admin: 404, others: 403 } },
      malformed: { input: same({ userId: '1 or 1=1' }), expect: { admin: 404, others: 403 } },
    },
  },

  'artists.list': {
    targets: {
      all: { input: same({}), expect: anyone },
      'by account': { input: async (_db, w) => ({ userId: w.actors.artist.user.id }), expect: anyone },
    },
  },
  'artists.create': {
    targets: {
      unlinked: { input: same({ name: 'New artist' }), expect: adminOnly },
      'linked to artist': {
        input: async (_db, w) => ({ name: 'New artist', userId: w.actors.artist.user.id }),
        expect: adminOnly,
      },
    },
  },
  'artists.get': {
    targets: {
      managed: artist(async (_db, w) => ({ artistId: w.artistA }), anyone),
      missing: artist(async () => ({ artistId: missingId() }), notFound),
      malformed: artist(same({ artistId: 'x' }), notFound),
    },
  },
  'artists.replace': {
    targets: {
      managed: artist(
        async (db, w) => ({ artistId: await managedArtist(db, w), name: 'Replaced' }),
        artistOrAdmin,
      ),
      'managed, relinking': artist(
        async (db, w) => ({
          artistId: await managedArtist(db, w),
          name: 'Replaced',
          userId: w.actors.otherArtist.user.id,
        }),
        { admin: 'ok', others: 403 },
      ),
      missing: artist(async () => ({ artistId: missingId(), name: 'Replaced' }), notFound),
    },
  },
  'artists.update': {
    targets: {
      managed: artist(
        async (db, w) => ({ artistId: await managedArtist(db, w), bio: 'Patched' }),
        artistOrAdmin,
      ),
      'managed, unlinking': artist(
        async (db, w) => ({ artistId: await managedArtist(db, w), userId: null }),
        { admin: 'ok', others: 403 },
      ),
      missing: artist(async () => ({ artistId: missingId(), bio: 'Patched' }), notFound),
    },
  },
  'artists.delete': {
    targets: {
      managed: artist(async (db, w) => ({ artistId: await managedArtist(db, w) }), adminOnly),
      missing: artist(async () => ({ artistId: missingId() }), notFound),
    },
  },
  'artists.songs': {
    targets: {
      managed: artist(async (_db, w) => ({ artistId: w.artistA }), anyone),
      missing: artist(async () => ({ artistId: missingId() }), notFound),
    },
  },
  'artists.linkSong': {
    targets: {
      'managed, a song': artist(
        async (db, w) => ({ artistId: await managedArtist(db, w), songId: await insertSongRow(db) }),
        artistOrAdmin,
      ),
      'missing artist': artist(
        async (db) => ({ artistId: missingId(), songId: await insertSongRow(db) }),
        notFound,
      ),
      'missing song': artist(
        async (db, w) => ({ artistId: await managedArtist(db, w), songId: missingId() }),
        notFound,
      ),
    },
  },
  'artists.unlinkSong': {
    targets: {
      'managed, a linked song': artist(async (db, w) => {
        const artistId = await managedArtist(db, w);
        return { artistId, songId: await insertSongRow(db, [artistId]) };
      }, artistOrAdmin),
      'managed, an unlinked song': artist(
        async (db, w) => ({ artistId: await managedArtist(db, w), songId: await insertSongRow(db) }),
        { artist: 404, admin: 404, others: 403 },
      ),
      'missing artist': artist(
        async (db) => ({ artistId: missingId(), songId: await insertSongRow(db) }),
        notFound,
      ),
    },
  },

  'songs.list': {
    targets: {
      all: { input: same({}), expect: anyone },
      'by artist': { input: async (_db, w) => ({ artistId: w.artistA, search: '%_\\' }), expect: anyone },
    },
  },
  'songs.create': {
    targets: {
      'artistIds omitted': {
        input: same({ title: 'New song', duration: 100 }),
        expect: { artist: 'ok', otherArtist: 'ok', admin: 'ok', others: 403 },
      },
      "artistA's song": {
        input: async (_db, w) => ({ title: 'New song', duration: 100, artistIds: [w.artistA] }),
        expect: artistOrAdmin,
      },
      'artistA and artistB': {
        input: async (_db, w) => ({ title: 'New song', duration: 100, artistIds: [w.artistB, w.artistA] }),
        expect: { artist: 'ok', otherArtist: 'ok', admin: 'ok', others: 403 },
      },
    },
  },
  'songs.get': {
    targets: {
      "artistA's song": { input: async (db, w) => ({ songId: await ownSong(db, w) }), expect: anyone },
      missing: { input: async () => ({ songId: missingId() }), expect: notFound },
      malformed: { input: same({ songId: '../../etc/passwd' }), expect: notFound },
    },
  },
  'songs.update': {
    targets: {
      "artistA's song": {
        input: async (db, w) => ({ songId: await ownSong(db, w), title: 'Patched' }),
        expect: artistOrAdmin,
      },
      "artistA's song, taking artistA off": {
        input: async (db, w) => ({ songId: await ownSong(db, w), artistIds: [w.artistB] }),
        expect: { admin: 'ok', others: 403 },
      },
      'a song of nobody': {
        input: async (db) => ({ songId: await insertSongRow(db), title: 'Patched' }),
        expect: adminOnly,
      },
      missing: { input: async () => ({ songId: missingId(), title: 'Patched' }), expect: notFound },
    },
  },
  'songs.delete': {
    targets: {
      "artistA's song": { input: async (db, w) => ({ songId: await ownSong(db, w) }), expect: artistOrAdmin },
      missing: { input: async () => ({ songId: missingId() }), expect: notFound },
    },
  },

  'playlists.list': {
    targets: {
      own: { input: same({}), expect: anyone },
      "user's": { input: async (_db, w) => ({ userId: w.actors.user.user.id }), expect: userOrAdmin },
      "user's public ones": {
        input: async (_db, w) => ({ userId: w.actors.user.user.id, visibility: 'public' }),
        expect: anyone,
      },
    },
  },
  'playlists.create': {
    targets: {
      'for yourself': { input: same({ name: 'Mine' }), expect: anyone },
      'for user': {
        input: async (_db, w) => ({ name: 'Theirs', userId: w.actors.user.user.id }),
        expect: userOrAdmin,
      },
    },
  },
  'playlists.get': {
    targets: {
      "user's private": {
        input: async (db, w) => ({ playlistId: await privatePlaylist(db, w) }),
        expect: userOrAdmin,
      },
      "user's public": {
        input: async (db, w) => ({ playlistId: await publicPlaylist(db, w) }),
        expect: anyone,
      },
      missing: { input: async () => ({ playlistId: missingId() }), expect: notFound },
      malformed: { input: same({ playlistId: 'null' }), expect: notFound },
    },
  },
  'playlists.replace': {
    targets: {
      "user's private": {
        input: async (db, w) => ({ playlistId: await privatePlaylist(db, w), name: 'Renamed' }),
        expect: userOrAdmin,
      },
      "user's public": {
        input: async (db, w) => ({
          playlistId: await publicPlaylist(db, w),
          name: 'Renamed',
          isPublic: true,
        }),
        expect: userOrAdmin,
      },
      missing: { input: async () => ({ playlistId: missingId(), name: 'Renamed' }), expect: notFound },
    },
  },
  'playlists.delete': {
    targets: {
      "user's private": {
        input: async (db, w) => ({ playlistId: await privatePlaylist(db, w) }),
        expect: userOrAdmin,
      },
      "user's public": {
        input: async (db, w) => ({ playlistId: await publicPlaylist(db, w) }),
        expect: userOrAdmin,
      },
      missing: { input: async () => ({ playlistId: missingId() }), expect: notFound },
    },
  },
  'playlists.songs': {
    targets: {
      "user's private": {
        input: async (db, w) => ({ playlistId: await privatePlaylist(db, w) }),
        expect: userOrAdmin,
      },
      "user's public": {
        input: async (db, w) => ({ playlistId: await publicPlaylist(db, w) }),
        expect: anyone,
      },
      missing: { input: async () => ({ playlistId: missingId() }), expect: notFound },
    },
  },
  'playlists.addSong': {
    targets: {
      "user's private": {
        input: async (db, w) => ({ playlistId: await privatePlaylist(db, w), songId: await ownSong(db, w) }),
        expect: userOrAdmin,
      },
      "user's public": {
        input: async (db, w) => ({ playlistId: await publicPlaylist(db, w), songId: await ownSong(db, w) }),
        expect: userOrAdmin,
      },
      "user's public, song already there": {
        input: async (db, w) => {
          const songId = await ownSong(db, w);
          return { playlistId: await publicPlaylist(db, w, [songId]), songId };
        },
        expect: { user: 409, admin: 409, others: 403 },
      },
      missing: {
        input: async (db, w) => ({ playlistId: missingId(), songId: await ownSong(db, w) }),
        expect: notFound,
      },
    },
  },
  'playlists.removeSong': {
    targets: {
      "user's public, a song in it": {
        input: async (db, w) => {
          const songId = await ownSong(db, w);
          return { playlistId: await publicPlaylist(db, w, [songId]), songId };
        },
        expect: userOrAdmin,
      },
      "user's private, a song not in it": {
        input: async (db, w) => ({ playlistId: await privatePlaylist(db, w), songId: await ownSong(db, w) }),
        expect: { user: 404, admin: 404, others: 403 },
      },
      missing: {
        input: async (db, w) => ({ playlistId: missingId(), songId: await ownSong(db, w) }),
        expect: notFound,
      },
    },
  },
};

let counter = 0;
function newUser() {
  counter++;
  return {
    username: `Matrix ${counter}`,
    email: `matrix-${uuidv7()}@example.com`,
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

// --- running it --------------------------------------------------------------------------------

let api: TestApi;
let trpc: TrpcClient;
let world: World;

async function makeWorld(db: Db): Promise<World> {
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

beforeAll(async () => {
  api = await startTestApi({ LOGIN_MAX_FAILURES_PER_EMAIL: 10_000, LOGIN_MAX_FAILURES_PER_ADDRESS: 10_000 });
  trpc = trpcOf(api);
  await watchWrites(api.database.db);
  world = await makeWorld(api.database.db);
});
afterAll(() => api?.close());

const routes = restRoutes;
const kinds = procedureKinds;

function send(transport: Transport, procedure: string, input: Input, token: string | undefined) {
  if (transport === 'trpc') return trpc.call(procedure, input, token);
  const { route } = routes.get(procedure)!;
  const rest: Input = { ...input };
  const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = String(rest[name]);
    delete rest[name];
    return encodeURIComponent(value);
  });
  if (route.method === 'GET' || route.method === 'DELETE') {
    const query = new URLSearchParams(
      Object.entries(rest).flatMap(
        ([k, v]): Array<[string, string]> => (v === undefined ? [] : [[k, String(v)]]),
      ),
    ).toString();
    return api.request(route.method, query ? `${path}?${query}` : path, { token });
  }
  return api.request(route.method, path, { token, body: rest });
}

describe('authorization matrix', () => {
  it('has a row for every procedure of the router, and none for procedures that do not exist', () => {
    const procedures = Object.keys(kinds).sort();
    expect(Object.keys(MATRIX).sort()).toEqual(procedures);
    // Every procedure is served on /v1 too (the document and the dispatcher read the same meta).
    expect([...routes.keys()].sort()).toEqual(procedures);
  });

  it.each(Object.keys(kinds))('%s: every caller x resource on both transports', async (procedure) => {
    const entry = MATRIX[procedure];
    expect(entry, `no matrix row for ${procedure}: add one`).toBeDefined();
    const { route, isPublic } = routes.get(procedure)!;
    const db = api.database.db;
    const mismatches: string[] = [];
    for (const [targetName, target] of Object.entries(entry!.targets)) {
      for (const actor of ACTORS) {
        const expected = outcomeFor(target.expect, actor, isPublic);
        for (const transport of ['v1', 'trpc'] as const) {
          const w = entry!.freshWorld ? await makeWorld(db) : world;
          const input = await target.input(db, w, actor);
          const token = actor === 'anonymous' ? undefined : w.actors[actor].token;
          const isMutation = kinds[procedure] === 'mutation';
          const before = isMutation ? await writeCount(db) : 0;
          const res = await send(transport, procedure, input, token);
          const label = `${transport} ${procedure} [${targetName}] as ${actor}`;
          const want = expected === 'ok' ? (transport === 'v1' ? (route.status ?? 200) : 200) : expected;
          if (res.status !== want) {
            mismatches.push(`${label}: expected ${want}, got ${res.status} ${res.text.slice(0, 160)}`);
            continue;
          }
          if (expected !== 'ok') {
            expect(codeOf(res), label).toBe(CODES[expected]);
            expect(errorShapeOk(transport, res), label).toBe(true);
          }
          if (isMutation) {
            const after = await writeCount(db);
            // A refused write writes nothing; an accepted one does write (the counter works).
            if (expected === 'ok') expect(after, `${label} wrote nothing`).toBeGreaterThan(before);
            else expect(after, `${label} wrote rows`).toBe(before);
          }
        }
      }
    }
    expect(mismatches).toEqual([]);
  });
});
