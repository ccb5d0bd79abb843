// The search bench's catalogue: deterministic rows (a seeded random stream per table) with the
// text search has to fold: accents, letter variants, punctuation, non-Latin scripts.
import { GENRES, WORDS } from './seed';

/** Words titles draw from now and then, each a case the folding has to get right. */
export const SPECIAL_WORDS = [
  'Beyoncé',
  'Sigur Rós',
  'Łódź',
  'Œuvre',
  'straße',
  'Mötley Crüe',
  'AC/DC',
  'Spider-Man',
  'café',
  'niño',
  'São Paulo',
  'Zürich',
  'Ørsted',
  '東京',
  'Москва',
  'Björk',
  'Motörhead',
  'Hüsker Dü',
  'déjà vu',
  'señorita',
  'naïve',
  'Kraków',
  'Reykjavík',
  'Dvořák',
  'Fußball',
  'Ægir',
  'R&B',
  "Rock'n'Roll",
  'Jay-Z',
  'Guns N’ Roses',
  'Ｔｏｋｙｏ',
  'ﬁre',
  'Αθήνα',
  'さくら',
  '서울',
  'Smørrebrød',
];

const FIRST_NAMES = (
  'Anna Ben Carla Dmitri Elena Femi Grace Hiro Ines Jonas Kofi Lena Marco Nadia Oscar Priya Quinn ' +
  'Rosa Sven Tariq Ulla Victor Wen Ximena Yusuf Zoe José François Søren Zoë Małgorzata Günter Chloé ' +
  'Andrés Björn Ólafur Renée Jürgen'
).split(' ');
const LAST_NAMES = (
  'Adams Bauer Costa Dubois Eriksen Fischer Garcia Hansen Ivanova Jensen Kowalski Larsen Müller ' +
  'Nakamura Okafor Petrov Quiroga Rossi Schmidt Tanaka Usman Varga Weber Xu Yamamoto Zielinski Núñez ' +
  'Ødegaard Sánchez Gómez Ångström Lefèvre Dvořáková Łukasiewicz Østergaard Öztürk'
).split(' ');

/** A small, fast, seedable random stream (mulberry32): the same seed gives the same catalogue. */
export function randomStream(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Ids by kind and number: time-ordered like the API's uuidv7, so no table is loaded in random order. */
const idOf = (kind: number) => (n: number) =>
  `0000000${kind}-0000-7000-8000-${n.toString(16).padStart(12, '0')}`;
export const songId = idOf(1);
export const artistId = idOf(2);
export const playlistId = idOf(3);
export const userId = idOf(4);

export interface Sizes {
  songs: number;
  artists: number;
  users: number;
  playlists: number;
}

export function sizesFor(songs: number): Sizes {
  return {
    songs,
    artists: Math.max(10, Math.round(songs / 10)),
    users: Math.max(10, Math.round(songs / 1000)),
    playlists: Math.max(10, Math.round(songs / 50)),
  };
}

const capitalise = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/**
 * A word of a title: mostly the English list, drawn with a skew (a few words are common, most
 * rare, as in real catalogues), and one in eight a word that needs folding.
 */
function word(random: () => number): string {
  if (random() < 0.125) return SPECIAL_WORDS[Math.floor(random() * SPECIAL_WORDS.length)]!;
  return capitalise(WORDS[Math.floor(random() ** 2 * WORDS.length)]!);
}

function phrase(random: () => number, weights: readonly number[]): string {
  let r = random();
  let n = 1;
  for (const w of weights) {
    if (r < w) break;
    r -= w;
    n++;
  }
  return Array.from({ length: n }, () => word(random)).join(' ');
}

/** 1 to 5 words. */
export const titleOf = (random: () => number) => phrase(random, [0.2, 0.3, 0.25, 0.15, 0.1]);

export function artistNameOf(random: () => number): string {
  const r = random();
  const person = () =>
    `${FIRST_NAMES[Math.floor(random() * FIRST_NAMES.length)]} ${LAST_NAMES[Math.floor(random() * LAST_NAMES.length)]}`;
  if (r < 0.45) return person();
  if (r < 0.75) return `The ${phrase(random, [0.5, 0.5])}`;
  if (r < 0.9) return phrase(random, [0.4, 0.4, 0.2]);
  return `${person()} & ${phrase(random, [1])}`;
}

/** A table's rows, in the column order given, `null` for SQL NULL. */
export interface TableRows {
  table: string;
  columns: string[];
  /** Each column's SQL type (for `unnest` on the embedded database). */
  types: string[];
  rows: () => Iterable<unknown[]>;
}

export function artistRows(sizes: Sizes): TableRows {
  return {
    table: 'artists',
    columns: ['id', 'name'],
    types: ['uuid', 'text'],
    rows: function* () {
      const random = randomStream(2);
      for (let i = 1; i <= sizes.artists; i++) yield [artistId(i), artistNameOf(random)];
    },
  };
}

export function songRows(sizes: Sizes): TableRows {
  return {
    table: 'songs',
    columns: ['id', 'title', 'album', 'genre', 'duration', 'release_year'],
    types: ['uuid', 'text', 'text', 'text', 'int', 'int'],
    rows: function* () {
      const random = randomStream(1);
      for (let i = 1; i <= sizes.songs; i++) {
        yield [
          songId(i),
          titleOf(random),
          random() < 0.05 ? null : phrase(random, [0.4, 0.4, 0.2]),
          GENRES[Math.floor(random() * GENRES.length)]!,
          60 + Math.floor(random() * 400),
          1960 + Math.floor(random() * 66),
        ];
      }
    },
  };
}

/** One artist per song, one song in five two; a few artists have many songs, most a handful. */
export function songArtistRows(sizes: Sizes): TableRows {
  return {
    table: 'song_artists',
    columns: ['song_id', 'artist_id', 'position'],
    types: ['uuid', 'uuid', 'int'],
    rows: function* () {
      const random = randomStream(3);
      const pick = () => 1 + Math.floor(random() ** 1.5 * sizes.artists);
      for (let i = 1; i <= sizes.songs; i++) {
        const first = pick();
        yield [songId(i), artistId(first), 0];
        if (random() < 0.2) {
          const second = pick();
          if (second !== first) yield [songId(i), artistId(second), 1];
        }
      }
    },
  };
}

export function playlistRows(sizes: Sizes): TableRows {
  return {
    table: 'playlists',
    columns: ['id', 'user_id', 'name', 'is_public'],
    types: ['uuid', 'uuid', 'text', 'boolean'],
    rows: function* () {
      const random = randomStream(4);
      for (let i = 1; i <= sizes.playlists; i++) {
        const owner = 1 + Math.floor(random() * sizes.users);
        yield [playlistId(i), userId(owner), phrase(random, [0.3, 0.5, 0.2]), random() < 0.5];
      }
    },
  };
}

/**
 * About 20 songs a playlist, drawn with a strong skew towards the first songs: popularity (how
 * many playlists hold a song) ranges from hundreds to none.
 */
export function playlistSongRows(sizes: Sizes): TableRows {
  return {
    table: 'playlist_songs',
    columns: ['playlist_id', 'song_id', 'position'],
    types: ['uuid', 'uuid', 'int'],
    rows: function* () {
      const random = randomStream(5);
      for (let p = 1; p <= sizes.playlists; p++) {
        const count = 15 + Math.floor(random() * 11);
        const chosen = new Set<number>();
        while (chosen.size < count) chosen.add(1 + Math.floor(random() ** 3 * sizes.songs));
        let position = 0;
        for (const s of chosen) yield [playlistId(p), songId(s), position++];
      }
    },
  };
}
