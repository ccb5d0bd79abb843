import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { Client, SignedIn, TestApi } from './harness';

/** Helpers for the catalogue's HTTP tests: records made through the API, fresh names each time. */

export const DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const error = (code: string) => ({ code, message: expect.any(String) });
export const validation = (fields: string[]) => ({
  code: 'VALIDATION_FAILED',
  message: expect.any(String),
  errors: fields.map((field) => ({ field, message: expect.any(String) })),
});

/** A short random tag, to find this test's own records among everyone else's. */
export function tag(): string {
  return randomBytes(5).toString('hex');
}

export interface Artist {
  id: string;
  name: string;
  bio: string | null;
  userId: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface Song {
  id: string;
  title: string;
  album: string | null;
  genre: string | null;
  duration: number;
  releaseYear: number | null;
  artistIds: string[];
  createdAt: string;
  updatedAt: string;
}

export interface Playlist {
  id: string;
  userId: string;
  name: string;
  description: string | null;
  isPublic: boolean;
  songIds: string[];
  songCount: number;
  createdAt: string;
  updatedAt: string;
}

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

/** Every route answers 401 without a token and with a malformed one, whatever the body. */
export async function expectTokenRequired(api: Client, routes: Array<[string, string]>): Promise<void> {
  for (const [method, path] of routes) {
    for (const token of [undefined, 'not-a-jwt']) {
      const body = method === 'GET' ? undefined : { unknownField: true };
      const res = await api.request(method, path, { token, body });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.body).toEqual(error('UNAUTHORIZED'));
    }
  }
}
