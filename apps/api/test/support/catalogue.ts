import { randomBytes } from 'node:crypto';
import type { ErrorCode, RouterOutputs } from '@music/api-router';
import { afterAll, beforeAll, expect } from 'vitest';
import { type Client, type Response, type SignedIn, startTestApi, type TestApi } from './harness';

/** Helpers for the catalogue's HTTP tests: records made through the API, fresh names each time. */

export const DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const error = (code: ErrorCode) => ({ code, message: expect.any(String) });
export const validation = (fields: string[]) => ({
  code: 'VALIDATION_FAILED' satisfies ErrorCode,
  message: expect.any(String),
  errors: fields.map((field) => ({ field, message: expect.any(String) })),
});

/**
 * A 201 answering `POST /v1{collection}` with exactly the record `fields` describe, besides a
 * fresh id and timestamps (`fields.id` replaces the id check), and the new record's `Location`.
 */
export function expectCreated(
  res: Response<{ id: string }>,
  collection: string,
  fields: Record<string, unknown>,
) {
  expect(res.status).toBe(201);
  expect(res.body).toEqual({
    id: expect.stringMatching(UUID),
    ...fields,
    createdAt: expect.stringMatching(DATE),
    updatedAt: expect.stringMatching(DATE),
  });
  expect(res.headers.get('location')).toBe(`/v1${collection}/${res.body.id}`);
}

/** A short random tag, to find this test's own records among everyone else's. */
export function tag(): string {
  return randomBytes(5).toString('hex');
}

/** The API's records as the router declares them (never restated here). */
export type Artist = RouterOutputs['artists']['get'];
export type Song = RouterOutputs['songs']['create'];
export type Playlist = RouterOutputs['playlists']['get'];

async function created<T>(
  client: Client,
  path: string,
  token: string,
  body: Record<string, unknown>,
): Promise<T> {
  const res = await client.request<T>('POST', path, { token, body });
  if (res.status !== 201) throw new Error(`POST ${path} failed: ${res.status} ${res.text}`);
  return res.body;
}

export function makeArtist(api: Client, admin: SignedIn, body: Record<string, unknown> = {}) {
  return created<Artist>(api, '/artists', admin.token, { name: `Artist ${tag()}`, ...body });
}

export function makeSong(api: Client, caller: SignedIn, body: Record<string, unknown> = {}) {
  return created<Song>(api, '/songs', caller.token, { title: `Song ${tag()}`, duration: 200, ...body });
}

export function makePlaylist(api: Client, caller: SignedIn, body: Record<string, unknown> = {}) {
  return created<Playlist>(api, '/playlists', caller.token, { name: `Playlist ${tag()}`, ...body });
}

/** An `artist` account managing a fresh artist. */
export async function makeArtistAccount(api: TestApi, admin: SignedIn) {
  const account = await api.signUp('artist');
  const artist = await makeArtist(api, admin, { userId: account.id });
  return { account, artist };
}

/** Who the catalogue suites act as: an admin, a listener, and two artist accounts with their artists. */
export interface CatalogueWorld {
  api: TestApi;
  admin: SignedIn;
  user: SignedIn;
  /** An `artist` account managing `managed`. */
  manager: SignedIn;
  managed: Artist;
  /** Another `artist` account managing `otherArtist`. */
  otherManager: SignedIn;
  otherArtist: Artist;
}

/**
 * A test API of this file's own, started before its tests and closed after them, with the
 * accounts of CatalogueWorld: read them from the returned object inside tests.
 */
export function catalogueWorld(): CatalogueWorld {
  const world = {} as CatalogueWorld;
  beforeAll(async () => {
    const api = await startTestApi();
    const admin = await api.signUp('admin');
    const user = await api.signUp('user');
    const mine = await makeArtistAccount(api, admin);
    const other = await makeArtistAccount(api, admin);
    Object.assign(world, {
      api,
      admin,
      user,
      manager: mine.account,
      managed: mine.artist,
      otherManager: other.account,
      otherArtist: other.artist,
    });
  });
  afterAll(() => world.api?.close());
  return world;
}

/** The playlist suites' world: an admin, a playlist owner, another listener and four songs. */
export interface PlaylistWorld {
  api: TestApi;
  admin: SignedIn;
  owner: SignedIn;
  other: SignedIn;
  songs: Song[];
  /** The ids of the first `n` songs. */
  ids(n: number): string[];
}

export function playlistWorld(): PlaylistWorld {
  const world = { ids: (n: number) => world.songs.slice(0, n).map((s) => s.id) } as PlaylistWorld;
  beforeAll(async () => {
    const api = await startTestApi();
    const admin = await api.signUp('admin');
    const songs: Song[] = [];
    for (let i = 0; i < 4; i++) songs.push(await makeSong(api, admin, { title: `Track ${i}` }));
    Object.assign(world, {
      api,
      admin,
      owner: await api.signUp('user'),
      other: await api.signUp('user'),
      songs,
    });
  });
  afterAll(() => world.api?.close());
  return world;
}
