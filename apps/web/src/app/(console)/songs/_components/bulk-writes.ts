'use client';

import { eachInTurn } from '@/lib/bulk';
import { toProblem } from '@/lib/errors';
import { etagOf } from '@/lib/etag';
import type { Playlist, Song, trpc } from '@/lib/trpc';

/**
 * The writes behind the songs list's bulk actions and their Undo. Each is sent with If-Match,
 * the tag of the record as the user saw it (or as this action left it), so nothing anyone
 * changed meanwhile is overwritten: a playlist is read again and the write tried again (adding
 * or removing songs does not depend on the rest of it); a song changed since is left as it is
 * and said so.
 */
type Utils = ReturnType<typeof trpc.useUtils>;

/** How often a playlist write is tried when the playlist changed between reading and writing. */
const ATTEMPTS = 3;

const withTag = async (record: unknown) => {
  const ifMatch = await etagOf(record);
  return { context: ifMatch ? { ifMatch } : {} };
};

export const changedSince = (error: unknown) => toProblem(error).code === 'PRECONDITION_FAILED';

/**
 * The playlist with its song ids made `songIds(current)`, written over `base` (its name, its
 * description and its visibility as they are); read again and retried if it changed meanwhile.
 */
async function rewrite(
  utils: Utils,
  base: Playlist,
  songIds: (current: string[]) => string[],
): Promise<Playlist> {
  let current = base;
  for (let attempt = 1; ; attempt++) {
    try {
      const saved = await utils.client.playlists.replace.mutate(
        {
          playlistId: current.id,
          name: current.name,
          description: current.description,
          isPublic: current.isPublic,
          songIds: songIds(current.songIds),
        },
        await withTag(current),
      );
      utils.playlists.get.setData({ playlistId: saved.id }, saved);
      return saved;
    } catch (failure) {
      if (!changedSince(failure) || attempt >= ATTEMPTS) throw failure;
      current = await utils.client.playlists.get.query({ playlistId: current.id });
    }
  }
}

/** Adds the songs not yet in the playlist at its end, in one write; the ids it added. */
export async function addSongs(utils: Utils, playlist: Playlist, songIds: readonly string[]) {
  let added: string[] = [];
  const saved = await rewrite(utils, playlist, (current) => {
    added = songIds.filter((id) => !current.includes(id));
    return [...current, ...added];
  });
  return { saved, added };
}

/** Takes the songs an add put in out of the playlist again (the Undo of addSongs). */
export function removeSongs(utils: Utils, playlist: Playlist, songIds: readonly string[]) {
  const leaving = new Set(songIds);
  return rewrite(utils, playlist, (current) => current.filter((id) => !leaving.has(id)));
}

/** A playlist made by the action, deleted again unless it changed since (the Undo of a create). */
export async function deleteMadePlaylist(utils: Utils, playlist: Playlist) {
  await utils.client.playlists.delete.mutate({ playlistId: playlist.id }, await withTag(playlist));
}

/** One song's genre set, as the song was when listed (a song changed since is refused, 412). */
export async function setGenre(utils: Utils, song: Song, genre: string | null): Promise<Song> {
  return utils.client.songs.update.mutate({ songId: song.id, genre }, await withTag(song));
}

/** Sets `genre` on every song; what each was before, for the Undo. */
export function setGenres(utils: Utils, songs: readonly Song[], genre: string | null) {
  return eachInTurn(songs, (song) => setGenre(utils, song, genre));
}

/** Deletes every song as it was when listed. */
export function deleteSongs(utils: Utils, songs: readonly Song[]) {
  return eachInTurn(songs, async (song) => {
    await utils.client.songs.delete.mutate({ songId: song.id }, await withTag(song));
    return song;
  });
}
