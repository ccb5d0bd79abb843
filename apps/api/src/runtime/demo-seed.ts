import type { Logger } from '@music/api-router';
import { hashPassword } from '@music/auth';
import {
  advisoryXactLock,
  type Db,
  findUserByEmail,
  hasAnyArtist,
  insertArtist,
  insertPlaylist,
  insertSong,
  insertUser,
  linkSongArtist,
  type Role,
  setPlaylistSongs,
  setSongArtists,
  uuidv7,
} from '@music/db';
import catalogue from './demo-catalogue.json' with { type: 'json' };

/** The demo accounts `pnpm dev` prints (never seeded in production). */
export const DEMO_ACCOUNTS = {
  admin: { email: 'admin@example.com', password: 'admin-password', username: 'Demo Admin' },
  artist: { email: 'artist@example.com', password: 'artist-password', username: 'Mara Quill' },
  listener: { email: 'listener@example.com', password: 'listener-password', username: 'Lee Listener' },
} as const;

/** The demo catalogue, kept as data in demo-catalogue.json. */
interface DemoCatalogue {
  artists: Array<{
    name: string;
    bio: string;
    /** title, album, genre, year, duration in seconds */
    songs: Array<[string, string, string, number, number]>;
  }>;
  /** Songs sung together: (title, featured artist) links added after the main artist. */
  features: Array<[string, string]>;
  /** The listener's playlists, songs by title. */
  playlists: Array<{ name: string; description: string; isPublic: boolean; songs: string[] }>;
}

// JSON imports widen tuples to arrays; the shape above is what the file holds.
const CATALOGUE = catalogue as DemoCatalogue;

const SEED_LOCK = 'music-demo-seed';

/**
 * Seeds a small, believable catalogue into an empty database: six artists with songs, an
 * artist account managing one of them, a listener with two playlists (one public) and an
 * admin (unless one with that email exists). Never twice: it does nothing once any artist
 * exists, and runs under an advisory lock so instances starting together seed once.
 */
export async function seedDemoData(deps: { db: Db; log: Pick<Logger, 'info'> }): Promise<boolean> {
  // Cheap early exit for every start after the first; the check is repeated under the lock.
  if (await hasAnyArtist(deps.db)) return false;
  const [adminHash, artistHash, listenerHash] = await Promise.all([
    hashPassword(DEMO_ACCOUNTS.admin.password),
    hashPassword(DEMO_ACCOUNTS.artist.password),
    hashPassword(DEMO_ACCOUNTS.listener.password),
  ]);
  const seeded = await deps.db.transaction().execute(async (trx) => {
    await advisoryXactLock(trx, SEED_LOCK);
    if (await hasAnyArtist(trx)) return false;

    const account = async (role: Role, which: keyof typeof DEMO_ACCOUNTS, passwordHash: string) => {
      const { email, username } = DEMO_ACCOUNTS[which];
      const existing = await findUserByEmail(trx, email);
      if (existing) return existing;
      return insertUser(trx, { id: uuidv7(), username, email, password_hash: passwordHash, role });
    };
    await account('admin', 'admin', adminHash);
    const artistUser = await account('artist', 'artist', artistHash);
    const listener = await account('user', 'listener', listenerHash);

    const artistIds = new Map<string, string>();
    const songIds = new Map<string, string>();
    for (const [index, artist] of CATALOGUE.artists.entries()) {
      const row = await insertArtist(trx, {
        id: uuidv7(),
        name: artist.name,
        bio: artist.bio,
        // The artist account manages the first artist (only if it really has the artist role).
        user_id: index === 0 && artistUser.role === 'artist' ? artistUser.id : null,
      });
      artistIds.set(artist.name, row.id);
      for (const [title, album, genre, year, duration] of artist.songs) {
        const song = await insertSong(trx, {
          id: uuidv7(),
          title,
          album,
          genre,
          duration,
          release_year: year,
          isrc: null,
          external_id: null,
        });
        await setSongArtists(trx, song.id, [row.id]);
        songIds.set(title, song.id);
      }
    }
    for (const [title, name] of CATALOGUE.features) {
      await linkSongArtist(trx, { songId: songIds.get(title)!, artistId: artistIds.get(name)! });
    }

    for (const { name, description, isPublic, songs } of CATALOGUE.playlists) {
      const row = await insertPlaylist(trx, {
        id: uuidv7(),
        user_id: listener.id,
        name,
        description,
        is_public: isPublic,
      });
      await setPlaylistSongs(
        trx,
        row.id,
        songs.map((title) => songIds.get(title)!),
      );
    }
    return true;
  });
  if (seeded)
    deps.log.info('demo data seeded', { accounts: Object.values(DEMO_ACCOUNTS).map((a) => a.email) });
  return seeded;
}
