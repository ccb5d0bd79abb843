// The scale bench's requests: what each case sends, per connection, at one catalogue size.
import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { Req } from './measure';
import { randomStream, songId } from './search-catalogue';
import { WORDS } from './seed';

export const DETAIL = 'song detail';
export const FIRST_PAGE = 'first page';
export const DEEP_PAGE = 'deep page (page=)';
export const DEEP_CURSOR = 'deep page (cursor)';
export const SEARCH = 'search (common word)';
export const PLAYLIST_ADD = 'playlist add';
/** In the order they run: the write last, so no read of the signed-in user waits for a replica to have it. */
export const CASE_NAMES = [DETAIL, FIRST_PAGE, DEEP_PAGE, DEEP_CURSOR, SEARCH, PLAYLIST_ADD] as const;
export type CaseName = (typeof CASE_NAMES)[number];

const PAGE = 20;
/** Requests pre-built per connection (cycled by the load generator). */
const PER_CONNECTION = 1_000;
/**
 * The titles' most common words (the catalogue draws words with a skew towards the start of the
 * list): each is in several percent of the titles, so a search of one has the most to read.
 */
const COMMON_WORDS = WORDS.slice(0, 5);

/** What the read cases need to know of the catalogue at this size. */
export interface Positions {
  songs: number;
  /** The pages around the middle of the list in its default order (by title, then id). */
  deepPages: number[];
  /** Cursors naming the same places, as the API makes them; none if ours did not match the API's. */
  deepCursors: string[];
}

/**
 * The cursor the API gives for "after this song" in the default order of `GET /songs` (see the
 * API's cursor.ts: base64url of `[order, values, id]`, a dot, a check of the list and that JSON).
 * Made here, since reaching the middle of a million songs page by page would take minutes; checked
 * against a cursor the API made itself (`cursorMatches`) before it is used.
 */
export function songsCursor(title: string, id: string): string {
  const json = JSON.stringify(['title', [title], id]);
  const check = createHash('sha256').update(`songs\n${json}`).digest('base64url').slice(0, 16);
  return `${Buffer.from(json, 'utf8').toString('base64url')}.${check}`;
}

/** Whether `songsCursor` makes what the API makes: the first page's next cursor, rebuilt. */
export async function cursorMatches(api: string, auth: Record<string, string>): Promise<boolean> {
  const res = await fetch(`${api}/v1/songs?cursor=&limit=2`, { headers: auth });
  if (res.status !== 200) return false;
  const body = (await res.json()) as {
    data: Array<{ id: string; title: string }>;
    pagination: { nextCursor: string | null };
  };
  const last = body.data.at(-1);
  return last !== undefined && songsCursor(last.title, last.id) === body.pagination.nextCursor;
}

/** The middle of the catalogue in the list's order, read on the primary: 20 pages and 20 cursors there. */
export async function deepPositions(
  client: pg.Client,
  songs: number,
  withCursors: boolean,
): Promise<Positions> {
  const middle = Math.max(1, Math.floor(songs / PAGE / 2));
  const deepPages = Array.from({ length: 20 }, (_, i) => Math.max(1, middle - 10 + i));
  const { rows } = await client.query<{ id: string; title: string }>(
    'select id, title from songs order by title, id offset $1 limit 20',
    [Math.max(0, (middle - 10) * PAGE)],
  );
  return { songs, deepPages, deepCursors: withCursors ? rows.map((r) => songsCursor(r.title, r.id)) : [] };
}

const get = (path: string, auth: Record<string, string>): Req => ({ path, headers: auth });

/**
 * Connection k's requests for a read case: song details of random ids (distinct streams per
 * connection), the first page, the pages (or cursors) around the middle, searches of common words.
 */
export function readRequests(
  name: CaseName,
  at: Positions,
  auth: Record<string, string>,
): ((k: number) => Req[]) | undefined {
  const cycle = <T>(list: readonly T[], k: number, make: (item: T) => Req) =>
    Array.from({ length: list.length }, (_, i) => make(list[(i + k) % list.length]!));
  switch (name) {
    case DETAIL:
      return (k) => {
        const random = randomStream(1_000 + k);
        return Array.from({ length: PER_CONNECTION }, () =>
          get(`/v1/songs/${songId(1 + Math.floor(random() * at.songs))}`, auth),
        );
      };
    case FIRST_PAGE:
      return () => [get(`/v1/songs?page=1&limit=${PAGE}`, auth)];
    case DEEP_PAGE:
      return (k) => cycle(at.deepPages, k, (page) => get(`/v1/songs?page=${page}&limit=${PAGE}`, auth));
    case DEEP_CURSOR:
      if (at.deepCursors.length === 0) return undefined;
      return (k) =>
        cycle(at.deepCursors, k, (cursor) =>
          get(`/v1/songs?cursor=${encodeURIComponent(cursor)}&limit=${PAGE}`, auth),
        );
    case SEARCH:
      return (k) => cycle(COMMON_WORDS, k, (word) => get(`/v1/search?q=${word}`, auth));
    default:
      return undefined;
  }
}

/**
 * Fresh empty playlists of the signed-in user, one per connection: the add case appends to them,
 * so what an add costs does not grow with earlier runs' adds (it reads the playlist's songs).
 */
export async function freshPlaylists(api: string, auth: Record<string, string>, count: number, tag: string) {
  const ids: string[] = [];
  for (let n = 0; n < count; n++) {
    const res = await fetch(`${api}/v1/playlists`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Scale bench ${tag} ${n}` }),
    });
    if (res.status !== 201) throw new Error(`playlist creation failed: ${res.status} ${await res.text()}`);
    ids.push(((await res.json()) as { id: string }).id);
  }
  return ids;
}

/** Connection k appends distinct random songs to playlist k (a repeat would be a 409). */
export function addRequests(playlists: string[], songs: number, auth: Record<string, string>, seed: number) {
  return (k: number): Req[] => {
    const random = randomStream(seed * 100 + k);
    const picked = new Set<number>();
    const count = Math.min(songs, PER_CONNECTION * 2);
    while (picked.size < count) picked.add(1 + Math.floor(random() * songs));
    return [...picked].map((n) => ({
      method: 'POST',
      path: `/v1/playlists/${playlists[k % playlists.length]}/songs`,
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ songId: songId(n) }),
    }));
  };
}
