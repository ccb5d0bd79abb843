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

/** The demo accounts `pnpm dev` prints (never seeded in production). */
export const DEMO_ACCOUNTS = {
  admin: { email: 'admin@example.com', password: 'admin-password', username: 'Demo Admin' },
  artist: { email: 'artist@example.com', password: 'artist-password', username: 'Mara Quill' },
  listener: { email: 'listener@example.com', password: 'listener-password', username: 'Lee Listener' },
} as const;

interface DemoArtist {
  name: string;
  bio: string;
  /** title, album, genre, year, duration in seconds */
  songs: Array<[string, string, string, number, number]>;
}

const CATALOGUE: DemoArtist[] = [
  {
    name: 'Mara Quill',
    bio: 'Singer-songwriter from Galway; fingerpicked guitar, close harmonies and songs about the sea.',
    songs: [
      ['Salt on the Window', 'Low Tide Letters', 'Folk', 2019, 214],
      ['Harbour Lights', 'Low Tide Letters', 'Folk', 2019, 187],
      ['The Long Way Round', 'Low Tide Letters', 'Folk', 2019, 246],
      ['Paper Boats', 'Northern Weather', 'Folk', 2022, 201],
      ['Northern Weather', 'Northern Weather', 'Folk', 2022, 233],
    ],
  },
  {
    name: 'The Velvet Static',
    bio: 'Four-piece indie rock band from Manchester, loud guitars and louder choruses since 2011.',
    songs: [
      ['Neon Lungs', 'Signal Loss', 'Indie Rock', 2014, 221],
      ['Signal Loss', 'Signal Loss', 'Indie Rock', 2014, 258],
      ['Crash Course', 'Signal Loss', 'Indie Rock', 2014, 176],
      ['Afterglow Motel', 'Radio Silence', 'Indie Rock', 2018, 242],
      ['Static Hearts', 'Radio Silence', 'Indie Rock', 2018, 205],
    ],
  },
  {
    name: 'Juno Okafor',
    bio: 'Lagos-born, London-based producer blending Afrobeat rhythms with warm analogue synths.',
    songs: [
      ['Sunday in Yaba', 'Ember City', 'Afrobeat', 2020, 229],
      ['Ember City', 'Ember City', 'Afrobeat', 2020, 264],
      ['Slow Burn', 'Ember City', 'Afrobeat', 2020, 198],
      ['Golden Hour (Interlude)', 'Ember City', 'Afrobeat', 2020, 92],
      ['Move Like Water', 'Tides', 'Electronic', 2023, 237],
    ],
  },
  {
    name: 'Elena Vasquez Trio',
    bio: 'Piano trio playing modern jazz with Latin roots; Elena writes, Tom plays bass, Ray drums.',
    songs: [
      ['Blue Hour in Havana', 'Nocturnes', 'Jazz', 2016, 356],
      ['Seventh Street', 'Nocturnes', 'Jazz', 2016, 298],
      ['Rain Study No. 2', 'Nocturnes', 'Jazz', 2016, 411],
      ['Late Train', 'Small Hours', 'Jazz', 2021, 322],
      ['Small Hours', 'Small Hours', 'Jazz', 2021, 389],
    ],
  },
  {
    name: 'Kite Theory',
    bio: 'Electronic duo making bright, melodic house music for early mornings and long drives.',
    songs: [
      ['Weightless', 'Altitude', 'Electronic', 2017, 312],
      ['Altitude', 'Altitude', 'Electronic', 2017, 287],
      ['Glass Sky', 'Altitude', 'Electronic', 2017, 301],
      ['Open Roads', 'Lift', 'House', 2022, 276],
      ['First Light', 'Lift', 'House', 2022, 344],
    ],
  },
  {
    name: 'Hollow Pines',
    bio: 'Americana band from the Blue Ridge Mountains: banjo, pedal steel and three-part harmony.',
    songs: [
      ['Copper Creek', 'Timberline', 'Americana', 2015, 224],
      ['Whiskey and Wildflowers', 'Timberline', 'Americana', 2015, 247],
      ['Porch Light', 'Timberline', 'Country', 2015, 193],
      ['Ridge Line', 'Back Roads Home', 'Americana', 2019, 262],
      ['Back Roads Home', 'Back Roads Home', 'Country', 2019, 238],
    ],
  },
];

/** Songs sung together: (title, featured artist) links added after the main artist. */
const FEATURES: Array<[string, string]> = [
  ['Move Like Water', 'Kite Theory'],
  ['Late Train', 'Mara Quill'],
];

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
    for (const [index, artist] of CATALOGUE.entries()) {
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
        });
        await setSongArtists(trx, song.id, [row.id]);
        songIds.set(title, song.id);
      }
    }
    for (const [title, name] of FEATURES) {
      await linkSongArtist(trx, { songId: songIds.get(title)!, artistId: artistIds.get(name)! });
    }

    const playlist = async (name: string, description: string, isPublic: boolean, titles: string[]) => {
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
        titles.map((title) => songIds.get(title)!),
      );
    };
    await playlist('Sunday Morning', 'Slow coffee, open windows.', true, [
      'Salt on the Window',
      'Blue Hour in Havana',
      'Sunday in Yaba',
      'Porch Light',
      'Weightless',
      'Small Hours',
    ]);
    await playlist('Running', 'Tempo up, no ballads.', false, [
      'Neon Lungs',
      'Crash Course',
      'Open Roads',
      'Move Like Water',
      'Static Hearts',
    ]);
    return true;
  });
  if (seeded)
    deps.log.info('demo data seeded', { accounts: Object.values(DEMO_ACCOUNTS).map((a) => a.email) });
  return seeded;
}
