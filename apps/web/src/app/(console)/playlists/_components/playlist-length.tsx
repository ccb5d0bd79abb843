'use client';

import { listPlaylistsInput } from '@music/api-router/schemas';
import { type Playlist, trpc } from '@/lib/trpc';

/** The most songs one page of a list holds (the procedures' shared page bound). */
const MAX_PAGE = listPlaylistsInput.shape.limit.unwrap().maxValue ?? 100;

/** A total length in words: "45 s", "12 min", "1 h 5 min". */
export function formatTotalLength(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (h === 0) return `${m} min`;
  return m === 0 ? `${h} h` : `${h} h ${m} min`;
}

/**
 * "12 songs · 47 min". The API has no total length and gives a playlist's songs in pages of at
 * most 100, so the total is summed from one page: up to `pageSize` songs that is the song list's
 * own first page (the same query, so no call of its own), up to 100 one call of 100; past 100
 * the first 100 songs' length is shown as a lower bound ("over …") rather than paying a call per
 * page for an exact figure.
 */
export function PlaylistLength({ playlist, pageSize }: { playlist: Playlist; pageSize: number }) {
  const count = playlist.songCount;
  const songs = trpc.playlists.songs.useQuery(
    { playlistId: playlist.id, page: 1, limit: count <= pageSize ? pageSize : MAX_PAGE },
    { enabled: count > 0 },
  );
  const seconds = songs.data?.data.reduce((sum, song) => sum + song.duration, 0);
  return (
    <>
      {count} {count === 1 ? 'song' : 'songs'}
      {count > 0 && seconds !== undefined && (
        <>
          {' · '}
          <time dateTime={`PT${seconds}S`}>
            {count > MAX_PAGE ? 'over ' : ''}
            {formatTotalLength(seconds)}
          </time>
        </>
      )}
    </>
  );
}
