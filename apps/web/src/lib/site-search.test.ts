import { describe, expect, it } from 'vitest';
import {
  foundRecords,
  fullResultsHref,
  resultsStatus,
  type SearchAnswer,
  songsSearchHref,
  takesText,
} from './site-search';

const ARTIST_ID = '00000000-0000-4000-8000-00000000000a';
const SONG_ID = '00000000-0000-4000-8000-000000000001';
const PLAYLIST_ID = '00000000-0000-4000-8000-000000000002';
const WHEN = '2026-01-01T00:00:00.000Z';

const song = (title: string, album: string | null, artistIds: string[]) => ({
  id: SONG_ID,
  title,
  album,
  artistIds,
  genre: null,
  duration: 200,
  releaseYear: null,
  isrc: null,
  externalId: null,
  createdAt: WHEN,
  updatedAt: WHEN,
});

const answer = {
  songs: [song('Halo', 'I Am… Sasha Fierce', [ARTIST_ID])],
  artists: [{ id: ARTIST_ID, name: 'Beyoncé', bio: null, userId: null, createdAt: WHEN, updatedAt: WHEN }],
  albums: [{ name: 'Lemonade & Co', artistIds: [ARTIST_ID], songCount: 12 }],
  playlists: [
    {
      id: PLAYLIST_ID,
      name: 'Queen B',
      description: null,
      isPublic: true,
      ownerId: ARTIST_ID,
      songIds: [SONG_ID],
      songCount: 1,
      createdAt: WHEN,
      updatedAt: WHEN,
    },
  ],
} as unknown as SearchAnswer;

describe('the header search', () => {
  it('lists the records kind after kind, each saying what it is and where it leads', () => {
    const found = foundRecords(answer, new Map([[ARTIST_ID, 'Beyoncé']]));
    expect(found.map(({ group, label, detail, href }) => ({ group, label, detail, href }))).toEqual([
      { group: 'Songs', label: 'Halo', detail: 'by Beyoncé · I Am… Sasha Fierce', href: `/songs/${SONG_ID}` },
      { group: 'Artists', label: 'Beyoncé', detail: 'Artist', href: `/artists/${ARTIST_ID}` },
      { group: 'Albums', label: 'Lemonade & Co', detail: '12 songs', href: '/songs?search=Lemonade+%26+Co' },
      { group: 'Playlists', label: 'Queen B', detail: '1 song', href: `/playlists/${PLAYLIST_ID}` },
    ]);
    // Ids are unique within a kind only, and albums have none: an option's id names its kind.
    expect(new Set(found.map((record) => record.id)).size).toBe(found.length);
    expect(found[0]!.id).toBe(`songs-${SONG_ID}`);
  });

  it('says a song’s artists while their names load, and “Song” when it has neither artist nor album', () => {
    const loading = foundRecords({ songs: [song('Halo', null, [ARTIST_ID])] }, new Map());
    expect(loading[0]!.detail).toBe('by …');
    const bare = foundRecords({ songs: [song('Untitled', null, [])] }, new Map());
    expect(bare[0]!.detail).toBe('Song');
    expect(foundRecords({}, new Map())).toEqual([]);
  });

  it('announces how many were found, of which kinds', () => {
    const found = foundRecords(answer, new Map());
    expect(resultsStatus(found, 'bey')).toBe('4 results: 1 song, 1 artist, 1 album, 1 playlist.');
    const twoSongs = foundRecords(
      { songs: [song('A', null, []), { ...song('B', null, []), id: 'x' }] },
      new Map(),
    );
    expect(resultsStatus(twoSongs, 'a')).toBe('2 results: 2 songs.');
    expect(resultsStatus([], ' zzz ')).toBe('Nothing found for “zzz”. Press Enter to search all songs.');
  });

  it('opens the full results best match first, and an album as a search of the songs', () => {
    expect(fullResultsHref(' sigur rós ')).toBe('/songs?search=sigur+r%C3%B3s&sort=relevance');
    expect(songsSearchHref('a/b?c')).toBe('/songs?search=a%2Fb%3Fc');
  });

  it('leaves `/` to text fields, and takes it as the shortcut everywhere else', () => {
    expect(takesText({ tagName: 'INPUT', type: 'text' })).toBe(true);
    expect(takesText({ tagName: 'input', type: 'search' })).toBe(true);
    expect(takesText({ tagName: 'INPUT', type: 'date' })).toBe(true);
    expect(takesText({ tagName: 'INPUT', type: 'made-up' })).toBe(true);
    expect(takesText({ tagName: 'TEXTAREA' })).toBe(true);
    expect(takesText({ tagName: 'DIV', isContentEditable: true })).toBe(true);
    expect(takesText({ tagName: 'INPUT', type: 'checkbox' })).toBe(false);
    expect(takesText({ tagName: 'BUTTON', type: 'submit' })).toBe(false);
    expect(takesText({ tagName: 'A' })).toBe(false);
    expect(takesText({ tagName: 'BODY' })).toBe(false);
    expect(takesText(null)).toBe(false);
  });
});
