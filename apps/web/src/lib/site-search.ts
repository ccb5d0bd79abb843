import type { RouterOutputs } from '@music/api-router/types';

/**
 * What the console's header search shows of a `search.find` answer: each record found as one
 * option of its kind's group (in the answer's order, best first), with a line saying what it is
 * and the page it opens; the words its live region says; and the addresses of the full results.
 */

export type SearchAnswer = RouterOutputs['search']['find'];

/** `sort=relevance` on a list: a search's matches, best first (only with a `search`). */
export const RELEVANCE = 'relevance';

/** The kinds in the order they are listed, each under its group's name. */
const KINDS = [
  { kind: 'songs', group: 'Songs', one: 'song', many: 'songs' },
  { kind: 'artists', group: 'Artists', one: 'artist', many: 'artists' },
  { kind: 'albums', group: 'Albums', one: 'album', many: 'albums' },
  { kind: 'playlists', group: 'Playlists', one: 'playlist', many: 'playlists' },
] as const;

export type FoundKind = (typeof KINDS)[number]['kind'];

/** One record found: unique `id` among all kinds, its name, what it is, and where it leads. */
export interface Found {
  id: string;
  kind: FoundKind;
  group: string;
  label: string;
  detail: string;
  href: string;
}

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The songs list searched for `text`, in the list's own order (an album, a suggested title). */
export function songsSearchHref(text: string): string {
  return `/songs?${new URLSearchParams({ search: text.trim() })}`;
}

/** The full results of a search: every matching song, best match first. */
export function fullResultsHref(text: string): string {
  return `/songs?${new URLSearchParams({ search: text.trim(), sort: RELEVANCE })}`;
}

/**
 * The records of an answer, kind after kind. A song says its artists (from `artistNames`, one
 * call for all of them; a name on its way is '…') and its album; an album and a playlist say
 * how many songs they hold. An album has no page of its own: it opens the songs list searched
 * for its name.
 */
export function foundRecords(answer: SearchAnswer, artistNames: ReadonlyMap<string, string>): Found[] {
  const songs = (answer.songs ?? []).map((song) => {
    const artists = song.artistIds.map((id) => artistNames.get(id) ?? '…').join(', ');
    const detail = [artists && `by ${artists}`, song.album].filter(Boolean).join(' · ');
    return { id: song.id, label: song.title, detail: detail || 'Song', href: `/songs/${song.id}` };
  });
  const artists = (answer.artists ?? []).map((artist) => ({
    id: artist.id,
    label: artist.name,
    detail: 'Artist',
    href: `/artists/${artist.id}`,
  }));
  // Albums have no id: two of one name (by different first artists) are told apart by place.
  const albums = (answer.albums ?? []).map((album, i) => ({
    id: String(i),
    label: album.name,
    detail: count(album.songCount, 'song', 'songs'),
    href: songsSearchHref(album.name),
  }));
  const playlists = (answer.playlists ?? []).map((playlist) => ({
    id: playlist.id,
    label: playlist.name,
    detail: count(playlist.songCount, 'song', 'songs'),
    href: `/playlists/${playlist.id}`,
  }));
  const byKind = { songs, artists, albums, playlists };
  return KINDS.flatMap(({ kind, group }) =>
    byKind[kind].map((record) => ({ ...record, id: `${kind}-${record.id}`, kind, group })),
  );
}

/** What the live region says of an answer for `text`: how many were found, of which kinds. */
export function resultsStatus(found: readonly Found[], text: string): string {
  if (found.length === 0) return `Nothing found for “${text.trim()}”. Press Enter to search all songs.`;
  const kinds = KINDS.flatMap(({ kind, one, many }) => {
    const n = found.filter((record) => record.kind === kind).length;
    return n > 0 ? [count(n, one, many)] : [];
  });
  return `${count(found.length, 'result', 'results')}: ${kinds.join(', ')}.`;
}

/** An element's name and state, as far as whether typing goes into it matters. */
interface Focused {
  tagName: string;
  type?: string;
  isContentEditable?: boolean;
}

/** Input types that are not typed into (buttons, boxes, pickers, sliders); dates are typed. */
const UNTYPED_INPUTS = new Set([
  'button',
  'checkbox',
  'color',
  'file',
  'hidden',
  'image',
  'radio',
  'range',
  'reset',
  'submit',
]);

/**
 * Whether keys pressed go into `element` as text: then `/` is a character typed, not the
 * shortcut to the search (an <input> of a type the browser does not know is a text box).
 */
export function takesText(element: Focused | null): boolean {
  if (!element) return false;
  if (element.isContentEditable) return true;
  const tag = element.tagName.toUpperCase();
  if (tag === 'TEXTAREA') return true;
  return tag === 'INPUT' && !UNTYPED_INPUTS.has((element.type ?? 'text').toLowerCase());
}
