/**
 * `pnpm bench:bulk`: bulk export and import at catalogue scale, on PostgreSQL. Seeds a scratch
 * database with 1,000,000 songs and 100,000 artists (straight into the tables, triggers off;
 * BENCH_BULK_SEED=search: the search benchmark's whole catalogue instead), starts the built API
 * on it, and measures:
 * - `GET /v1/songs/export` as CSV and as NDJSON, read to the end as fast as the client can:
 *   time, size, songs a second, and the API process's resident memory (sampled every 50 ms,
 *   and its peak, VmHWM);
 * - `POST /v1/imports` of a 100,000-record CSV into that catalogue (new songs, each with an
 *   ISRC, artists named from a pool of 2,000 of which half exist), followed until it ends: time,
 *   records a second, memory; then the same file again (every record matched, unchanged).
 * The API's resident memory must stay under 300 MB throughout (the target printed).
 *
 * Settings (environment): BENCH_BULK_SONGS (1,000,000), BENCH_BULK_IMPORT (100,000),
 * BENCH_SEARCH_KEEP=1 (reuse or keep the catalogue, as `pnpm bench:search` does, in
 * `music_search_bench_<songs>`; an import adds to it: a later run imports other songs),
 * BENCH_DATABASE_URL, BENCH_SEARCH_API (the build measured).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { hashPassword } from '@music/auth';
import { createDatabase } from '@music/db';
import pg from 'pg';
import { signIn } from './fixtures';
import { memory } from './proc';
import { API_ENV, onSignal, stop } from './processes';
import { sizesFor } from './search-catalogue';
import { BENCH_EMAIL, postgresTarget, reusedCatalogue, seedSearchCatalogue } from './search-seed';
import { BENCH_PASSWORD } from './seed';
import { log, root } from './settings';
import { API, closeStack, createScratchDatabase, start, waitFor } from './stack';

const SONGS = Number(process.env.BENCH_BULK_SONGS ?? 1_000_000);
const IMPORTED = Number(process.env.BENCH_BULK_IMPORT ?? 100_000);
const KEEP = process.env.BENCH_SEARCH_KEEP === '1';
const RSS_TARGET_MB = 300;

/** The API's memory while `work` runs: the largest resident size sampled, and the process's peak after. */
async function watched<T>(pid: number, work: () => Promise<T>) {
  let maxRss = memory(pid).rssMb;
  const timer = setInterval(() => {
    maxRss = Math.max(maxRss, memory(pid).rssMb);
  }, 50);
  const started = performance.now();
  try {
    const result = await work();
    return {
      result,
      seconds: (performance.now() - started) / 1000,
      maxRssMb: maxRss,
      peakMb: memory(pid).peakMb,
    };
  } finally {
    clearInterval(timer);
  }
}

async function exportOnce(auth: Record<string, string>, format: 'csv' | 'ndjson') {
  const res = await fetch(`${API}/v1/songs/export?format=${format}`, { headers: auth });
  if (res.status !== 200 || !res.body) throw new Error(`export failed: ${res.status}`);
  let bytes = 0;
  let lines = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    for (const byte of chunk) if (byte === 10) lines++;
  }
  return { bytes, lines };
}

/** A CSV of `count` new songs (a run tag keeps them new), artists named from a pool of 2,000. */
function importFile(count: number, tag: string): string {
  const lines = ['title,album,genre,duration,releaseYear,isrc,externalId,artists'];
  for (let n = 0; n < count; n++) {
    const isrc = `QZ${tag}${String(n).padStart(7, '0')}`.slice(0, 12);
    const artist = n % 2 === 0 ? `Bulk artist ${n % 1000}` : `Imported band ${tag} ${n % 1000}`;
    lines.push(
      `Bulk song ${tag} ${n},Album ${n % 5000},Rock,${120 + (n % 300)},${1960 + (n % 60)},${isrc},,${artist}`,
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}

async function runImport(auth: Record<string, string>, file: string) {
  const res = await fetch(`${API}/v1/imports`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'text/csv' },
    body: file,
  });
  if (res.status !== 202) throw new Error(`import refused: ${res.status} ${await res.text()}`);
  const { id } = (await res.json()) as { id: string };
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const state = (await (await fetch(`${API}/v1/imports/${id}`, { headers: auth })).json()) as {
      status: string;
      counts: Record<string, number>;
      failure: string | null;
    };
    if (state.status === 'succeeded' || state.status === 'failed') return state;
  }
}

/**
 * A catalogue for the export: `songs` songs (a tenth as many artists, each song by one or two)
 * written straight into the tables with their triggers off (`session_replication_role`), in a
 * minute where the search benchmark's seed (every search structure kept) takes many: the export
 * reads only the songs, their links and the artists' names (the search keys are stand-ins). The
 * bench user is made an admin.
 */
async function seedPlainCatalogue(client: pg.Client, songs: number): Promise<void> {
  const started = Date.now();
  await client.query('begin');
  await client.query('set local session_replication_role = replica');
  await client.query(
    `insert into users (id, username, email, password_hash, role)
     values ('00000004-0000-7000-8000-000000000001', 'Bench user 1', $1, $2, 'admin')`,
    [BENCH_EMAIL, await hashPassword(BENCH_PASSWORD)],
  );
  await client.query(
    `insert into artists (id, name) select ('00000002-0000-7000-8000-' || lpad(to_hex(i), 12, '0'))::uuid,
       'Artist ' || i from generate_series(1, $1::int) as i`,
    [Math.max(1, Math.floor(songs / 10))],
  );
  await client.query(
    `insert into songs (id, title, album, genre, duration, release_year, isrc, title_key, search_words)
     select ('00000001-0000-7000-8000-' || lpad(to_hex(i), 12, '0'))::uuid, 'Song ' || i || ', take "' || (i % 7) || '"',
       case when i % 3 = 0 then null else 'Album ' || (i % 50000) end, 'Genre ' || (i % 40), 60 + i % 600,
       1950 + i % 75, case when i % 2 = 0 then 'QZBLK' || lpad(i::text, 7, '0') end,
       'song ' || i, 'song ' || i
     from generate_series(1, $1::int) as i`,
    [songs],
  );
  await client.query(
    `insert into song_artists (song_id, artist_id, position)
     select ('00000001-0000-7000-8000-' || lpad(to_hex(i), 12, '0'))::uuid,
       ('00000002-0000-7000-8000-' || lpad(to_hex(1 + (i * 7) % $2::int), 12, '0'))::uuid, 0
     from generate_series(1, $1::int) as i
     union all
     select ('00000001-0000-7000-8000-' || lpad(to_hex(i), 12, '0'))::uuid,
       ('00000002-0000-7000-8000-' || lpad(to_hex(1 + (i * 13 + 1) % $2::int), 12, '0'))::uuid, 1
     from generate_series(1, $1::int) as i where i % 2 = 0 and (i * 7) % $2::int <> (i * 13 + 1) % $2::int`,
    [songs, Math.max(1, Math.floor(songs / 10))],
  );
  await client.query('commit');
  await client.query('vacuum analyze songs, song_artists, artists');
  log(`seeded ${songs} songs plainly in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

async function main() {
  const apiDist = path.resolve(root, process.env.BENCH_SEARCH_API ?? 'apps/api/dist/server.mjs');
  if (!existsSync(apiDist)) throw new Error('Build first: pnpm --filter @music/api build');
  const stack = await createScratchDatabase(KEEP ? `music_search_bench_${SONGS}` : undefined);
  onSignal(() => closeStack(stack));
  try {
    const database = await createDatabase({ databaseUrl: stack.databaseUrl });
    await database.migrate();
    await database.close();
    const client = new pg.Client({ connectionString: stack.databaseUrl });
    await client.connect();
    const target = postgresTarget(client);
    if (stack.existed) await reusedCatalogue(target);
    else if (process.env.BENCH_BULK_SEED === 'search') await seedSearchCatalogue(target, sizesFor(SONGS));
    else await seedPlainCatalogue(client, SONGS);
    // The importer is an admin (artists it names that do not exist are made).
    await client.query(`update users set role = 'admin' where email = $1`, [BENCH_EMAIL]);
    const songs = Number((await client.query('select count(*) as n from songs')).rows[0].n);
    await client.end();

    const api = start(
      'api',
      [apiDist],
      { ...API_ENV, DATA_DIR: stack.dataDir, DATABASE_URL: stack.databaseUrl },
      root,
    );
    stack.children.push(api);
    await waitFor(`${API}/v1/health`, 60);
    const auth = await signIn(API, BENCH_EMAIL);
    const pid = api.pid!;
    log(`API resident at start: ${memory(pid).rssMb} MB; catalogue ${songs} songs`);
    const rows: string[] = [];
    for (const format of ['csv', 'ndjson'] as const) {
      const run = await watched(pid, () => exportOnce(auth, format));
      rows.push(
        `export ${format}: ${run.result.lines} lines, ${(run.result.bytes / 1e6).toFixed(1)} MB in ${run.seconds.toFixed(1)} s ` +
          `(${Math.round(songs / run.seconds)} songs/s); API RSS max ${run.maxRssMb} MB, peak ${run.peakMb} MB`,
      );
      log(rows.at(-1)!);
    }
    const tag = Date.now().toString(36).slice(-3).toUpperCase();
    const file = importFile(IMPORTED, tag);
    for (const pass of ['new songs', 'the same file again']) {
      const run = await watched(pid, () => runImport(auth, file));
      const counts = JSON.stringify(run.result.counts);
      rows.push(
        `import of ${IMPORTED} records (${(file.length / 1e6).toFixed(1)} MB), ${pass}: ${run.result.status} ${counts} in ` +
          `${run.seconds.toFixed(1)} s (${Math.round(IMPORTED / run.seconds)} records/s); API RSS max ${run.maxRssMb} MB, peak ${run.peakMb} MB`,
      );
      log(rows.at(-1)!);
    }
    const peak = memory(pid).peakMb;
    await stop(api);
    console.log(`\n${rows.join('\n')}`);
    console.log(
      `target: API resident memory under ${RSS_TARGET_MB} MB: peak ${peak} MB, ${peak < RSS_TARGET_MB ? 'met' : 'MISSED'}`,
    );
  } finally {
    await closeStack(stack);
  }
}

await main();
