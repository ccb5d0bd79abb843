import {
  adminOnly,
  anyone,
  artist,
  artistOrAdmin,
  type Entry,
  managedArtist,
  notFound,
  ownSong,
  privatePlaylist,
  publicPlaylist,
  type Rule,
  same,
  type Target,
  userOrAdmin,
} from './authz-rules';
import { insertSongRow, missingId } from './support';

/** A playlist of `user`'s, private or public, and one that does not exist. */
function playlistById(publicRule: Rule): Record<string, Target> {
  return {
    "user's private": {
      input: async (db, w) => ({ playlistId: await privatePlaylist(db, w) }),
      expect: userOrAdmin,
    },
    "user's public": {
      input: async (db, w) => ({ playlistId: await publicPlaylist(db, w) }),
      expect: publicRule,
    },
    missing: { input: async () => ({ playlistId: missingId() }), expect: notFound },
  };
}

/** The authorization matrix's rows for the catalogue and the playlists, one per procedure. */
export const CATALOGUE_ROWS: Record<string, Entry> = {
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
      // A song must already be the caller's (version 1.2): artistA's song may go to another
      // artist of the same account; a song of nobody, or of artistB, may not be claimed.
      'managed, a song of artistA': artist(
        async (db, w) => ({ artistId: await managedArtist(db, w), songId: await ownSong(db, w) }),
        artistOrAdmin,
      ),
      'managed, a song of nobody': artist(
        async (db, w) => ({ artistId: await managedArtist(db, w), songId: await insertSongRow(db) }),
        adminOnly,
      ),
      "managed, artistB's song": artist(
        async (db, w) => ({
          artistId: await managedArtist(db, w),
          songId: await insertSongRow(db, [w.artistB]),
        }),
        adminOnly,
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

  'songs.export': { targets: { all: { input: same({ format: 'ndjson' }), expect: anyone } } },
  'songs.list': {
    targets: {
      all: { input: same({}), expect: anyone },
      'by artist': { input: async (_db, w) => ({ artistId: w.artistA, search: '%_\\' }), expect: anyone },
    },
  },
  'genres.list': {
    targets: {
      all: { input: same({}), expect: anyone },
      searched: { input: same({ search: '%_\\' }), expect: anyone },
    },
  },
  'search.find': {
    targets: {
      all: { input: same({ q: 'song' }), expect: anyone },
      folded: { input: same({ q: 'Sóng %_\\', types: 'songs,albums', limit: 20 }), expect: anyone },
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
      "artistA and artistB's song, one of them dropped": {
        input: async (db, w) => ({
          songId: await insertSongRow(db, [w.artistA, w.artistB]),
          artistIds: [w.artistA],
        }),
        expect: { admin: 'ok', others: 403 },
      },
      "artistA and artistB's song, reordered": {
        input: async (db, w) => ({
          songId: await insertSongRow(db, [w.artistA, w.artistB]),
          artistIds: [w.artistB, w.artistA],
        }),
        expect: { artist: 'ok', otherArtist: 'ok', admin: 'ok', others: 403 },
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
      ...playlistById(anyone),
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
  'playlists.delete': { targets: playlistById(userOrAdmin) },
  'playlists.songs': { targets: playlistById(anyone) },
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
