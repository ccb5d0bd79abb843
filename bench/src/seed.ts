import { hashPassword } from '@music/auth';
import type pg from 'pg';

export const BENCH_PASSWORD = 'bench-password';
export const SIZES = {
  users: 1_000,
  artists: 10_000,
  songs: 100_000,
  playlists: 5_000,
  songsPerPlaylist: 20,
};

/** 200 words: titles are three of them, so one word matches roughly 1.5% of the songs. */
export const WORDS = (
  'love night dream fire heart rain summer light shadow river ocean star moon sun wild blue gold silver ' +
  'stone road home city street dance song echo ghost storm wind thunder winter spring autumn morning ' +
  'evening midnight dawn dusk sky cloud mountain valley forest garden desert island harbor bridge tower ' +
  'castle kingdom empire queen king prince angel devil saint sinner lover stranger friend enemy hero ' +
  'rebel outlaw soldier sailor pilot driver runner dreamer believer wanderer traveler memory promise ' +
  'secret lie truth story chapter letter whisper scream silence thunderbolt lightning crystal diamond ' +
  'velvet satin leather paper glass iron steel copper neon electric magnetic cosmic atomic digital ' +
  'analog vinyl radio signal frequency wave tide current pulse rhythm melody harmony chorus verse bridge2 ' +
  'anthem ballad lullaby requiem hymn carnival circus parade festival party highway freeway avenue ' +
  'boulevard alley corner window door mirror picture frame canvas portrait sunset sunrise horizon ' +
  'galaxy planet comet meteor orbit gravity rocket engine machine robot android cyborg phantom spirit ' +
  'soul mind body blood bone skin tears smile kiss touch embrace goodbye hello tomorrow yesterday forever ' +
  'never always sometimes maybe nothing everything somebody nobody everybody paradise heaven'
).split(' ');

export const GENRES = [
  'rock',
  'pop',
  'jazz',
  'blues',
  'folk',
  'soul',
  'funk',
  'metal',
  'punk',
  'electronic',
  'hip-hop',
  'classical',
];

/**
 * Fills an empty, migrated database with the benchmark's catalogue in a few set-based
 * statements (seconds, not minutes). Deterministic sizes; random but realistic text.
 */
export async function seedBenchData(client: pg.Client): Promise<void> {
  const hash = await hashPassword(BENCH_PASSWORD);
  const words = `array[${WORDS.map((w) => `'${w}'`).join(',')}]`;
  const genres = `array[${GENRES.map((g) => `'${g}'`).join(',')}]`;
  const pick = (arr: string, n: number) => `(${arr})[1 + floor(random() * ${n})::int]`;
  await client.query('begin');
  await client.query(
    `insert into users (id, username, email, password_hash, role, created_at)
     select gen_random_uuid(), 'Bench user ' || i, 'bench-user-' || i || '@example.com', $1,
            case when i = 1 then 'admin' when i <= 50 then 'artist' else 'user' end,
            now() - (i || ' seconds')::interval
     from generate_series(1, ${SIZES.users}) as i`,
    [hash],
  );
  await client.query(
    `insert into artists (id, name, bio)
     select gen_random_uuid(), initcap(${pick(words, WORDS.length)} || ' ' || ${pick(words, WORDS.length)}) || ' ' || i, null
     from generate_series(1, ${SIZES.artists}) as i`,
  );
  await client.query(
    `insert into songs (id, title, album, genre, duration, release_year)
     select gen_random_uuid(),
            initcap(${pick(words, WORDS.length)} || ' ' || ${pick(words, WORDS.length)} || ' ' || ${pick(words, WORDS.length)}),
            initcap(${pick(words, WORDS.length)} || ' ' || ${pick(words, WORDS.length)}),
            ${pick(genres, GENRES.length)},
            60 + floor(random() * 400)::int,
            1960 + floor(random() * 66)::int
     from generate_series(1, ${SIZES.songs}) as i`,
  );
  await client.query(
    `insert into song_artists (song_id, artist_id, position)
     select s.id, a.id, 0
     from (select id, row_number() over () as n from songs) s
     join (select id, row_number() over () as n from artists) a on a.n = 1 + (s.n % ${SIZES.artists})`,
  );
  await client.query(
    `insert into playlists (id, user_id, name, is_public, created_at)
     select gen_random_uuid(), u.id, 'Playlist ' || p.i, p.i % 3 = 0, now() - (p.i || ' seconds')::interval
     from generate_series(1, ${SIZES.playlists}) as p(i)
     join (select id, row_number() over () as n from users) u on u.n = 1 + (p.i % ${SIZES.users})`,
  );
  await client.query(
    `insert into playlist_songs (playlist_id, song_id, position)
     select p.id, s.id, k.k
     from (select id, row_number() over () as n from playlists) p
     cross join generate_series(0, ${SIZES.songsPerPlaylist - 1}) as k(k)
     join (select id, row_number() over () - 1 as n from songs) s
       on s.n = ((p.n * 7919 + k.k * 104729) % ${SIZES.songs})
     on conflict do nothing`,
  );
  await client.query('commit');
  await client.query('analyze');
}
