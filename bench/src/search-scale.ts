/**
 * `pnpm bench:search`: search at catalogue scale. Seeds a scratch PostgreSQL database with
 * 1,000,000 songs and 100,000 artists (titles of 1 to 5 words, some needing folding: accents,
 * letter variants, punctuation, other scripts), each song by 1 or 2 artists, and playlists of
 * about 20 songs drawn so that popularity varies. Prints how long the load and each search index
 * take and the indexes' sizes, then measures the API with every request distinct (no cache can
 * answer): the finder (`GET /v1/search?q=`), a song list's search, and the same ranked by
 * relevance. A class that misses its target has its slowest requests' statements explained on
 * the seeded database before it is dropped.
 *
 * With BENCH_SEARCH_EMBEDDED=1 the same runs on the embedded database (PGlite, 100,000 songs,
 * the API started with no DATABASE_URL on a temporary DATA_DIR seeded beforehand), with fewer
 * connections: it runs one query at a time.
 *
 * Settings (environment): BENCH_SEARCH_SONGS (1,000,000; embedded 100,000; artists a tenth),
 * BENCH_SEARCH_KEEP=1 (PostgreSQL only: the catalogue goes into `music_search_bench_<songs>`,
 * which is kept, and a later run with the setting reuses it, migrated, instead of seeding again),
 * BENCH_SEARCH_SECONDS per class (20), BENCH_SEARCH_WARM_UP_SECONDS before each (3),
 * BENCH_SEARCH_CONNECTIONS (20; embedded 2),
 * BENCH_DATABASE_URL (the server the scratch database is created on; default the local one),
 * BENCH_SEARCH_API (the build measured: another `server.mjs`, for an A/B on one kept catalogue;
 * default this checkout's `apps/api/dist/server.mjs`), BENCH_SEARCH_CLASSES (which classes, by
 * comma-separated words of their names: `search`, `songs`, `relevance`; default all three).
 *
 * Files: search-catalogue.ts (the rows), search-seed.ts (loading, index builds and sizes),
 * search-load.ts (distinct requests, the timed closed loop), search-explain.ts, search-report.ts.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDatabase } from '@music/db';
import { CompiledQuery } from 'kysely';
import pg from 'pg';
import { signIn } from './fixtures';
import { API_ENV, onSignal, stop } from './processes';
import { artistId, randomStream, type Sizes, sizesFor, songId } from './search-catalogue';
import { explainSlowest, type RequestClass } from './search-explain';
import { type ClassFigures, distinctLoad, finderQueries, listTerms, type Texts } from './search-load';
import { checkTargets, printRun, type SearchRun, writeRun } from './search-report';
import {
  BENCH_EMAIL,
  BENCH_USER_ID,
  postgresTarget,
  reusedCatalogue,
  type SqlTarget,
  seedSearchCatalogue,
  statementTarget,
} from './search-seed';
import { log, root } from './settings';
import { API, closeStack, createScratchDatabase, type Stack, settle, start, waitFor } from './stack';

const EMBEDDED = process.env.BENCH_SEARCH_EMBEDDED === '1';
const KEEP = process.env.BENCH_SEARCH_KEEP === '1';
const SONGS = Number(process.env.BENCH_SEARCH_SONGS ?? (EMBEDDED ? 100_000 : 1_000_000));
const SECONDS = Number(process.env.BENCH_SEARCH_SECONDS ?? 20);
const CONNECTIONS = Number(process.env.BENCH_SEARCH_CONNECTIONS ?? (EMBEDDED ? 2 : 20));
/**
 * Each class first runs this long unmeasured (its own distinct queries): JIT, caches, pool, and
 * the plans each connection makes once per statement text.
 */
const WARM_UP_SECONDS = Number(process.env.BENCH_SEARCH_WARM_UP_SECONDS ?? 3);

const FINDER = 'GET /v1/search?q=';
const LIST = 'GET /v1/songs?search=';
const RANKED = 'GET /v1/songs?search=&sort=relevance';
const CLASSES: Record<string, RequestClass> = Object.fromEntries(
  Object.entries({ [FINDER]: 'search', [LIST]: 'songs', [RANKED]: 'relevance' } as const).filter(
    ([, requestClass]) =>
      !process.env.BENCH_SEARCH_CLASSES || process.env.BENCH_SEARCH_CLASSES.split(',').includes(requestClass),
  ),
);

/** Titles and artist names to type, read back from the database (the folding left them as they are). */
async function sampleTexts(target: SqlTarget, sizes: Sizes): Promise<Texts> {
  const random = randomStream(7);
  const ids = (count: number, of: (n: number) => string, total: number) =>
    Array.from({ length: Math.min(count, total) }, () => of(1 + Math.floor(random() * total)));
  const titles = await target.query<{ text: string }>(
    'select title as text from songs where id = any($1::uuid[])',
    [ids(5_000, songId, sizes.songs)],
  );
  const names = await target.query<{ text: string }>(
    'select name as text from artists where id = any($1::uuid[])',
    [ids(3_000, artistId, sizes.artists)],
  );
  return { titles: titles.map((r) => r.text), artists: names.map((r) => r.text) };
}

/** Each class for SECONDS after its warm-up; no query is sent twice in the whole run. */
async function measureClasses(
  auth: Record<string, string>,
  texts: Texts,
  timeoutMs: number,
  settled: () => Promise<void>,
) {
  const used = new Set<string>();
  const classes: Record<string, ClassFigures> = {};
  const sources: Record<string, () => { path: string; q: string } | undefined> = {};
  const withPath = (next: () => string | undefined, toPath: (q: string) => string) => () => {
    const q = next();
    return q === undefined ? undefined : { q, path: toPath(q) };
  };
  const term = encodeURIComponent;
  // The finder last: requests it leaves running on the database when its time is up (or that
  // the client gave up on) then delay no other class.
  sources[LIST] = withPath(listTerms(texts, used, 12), (q) => `/v1/songs?search=${term(q)}`);
  sources[RANKED] = withPath(listTerms(texts, used, 13), (q) => `/v1/songs?search=${term(q)}&sort=relevance`);
  sources[FINDER] = withPath(finderQueries(texts, used, 11), (q) => `/v1/search?q=${term(q)}`);
  for (const [name, next] of Object.entries(sources)) {
    if (!(name in CLASSES)) continue;
    await settled();
    log(`${name}: ${WARM_UP_SECONDS} s warm-up, then ${SECONDS} s at ${CONNECTIONS} connections`);
    await distinctLoad(API, auth, next, { connections: CONNECTIONS, seconds: WARM_UP_SECONDS, timeoutMs });
    classes[name] = await distinctLoad(API, auth, next, {
      connections: CONNECTIONS,
      seconds: SECONDS,
      timeoutMs,
    });
    const c = classes[name]!;
    log(`  ${c.requests} requests, ${c.rps} req/s, p50 ${c.p50} ms, p99 ${c.p99} ms, max ${c.max} ms`);
  }
  return classes;
}

async function postgresRun(stack: Stack & { existed: boolean }, apiDist: string): Promise<SearchRun> {
  const sizes = sizesFor(SONGS);
  const database = await createDatabase({ databaseUrl: stack.databaseUrl });
  await database.migrate();
  await database.close();
  const client = new pg.Client({ connectionString: stack.databaseUrl });
  await client.connect();
  const target = postgresTarget(client);
  if (stack.existed) log(`reusing the catalogue in ${stack.dbName} (BENCH_SEARCH_KEEP)`);
  const seed = stack.existed ? await reusedCatalogue(target) : await seedSearchCatalogue(target, sizes);
  const texts = await sampleTexts(target, sizes);
  await client.end();

  const api = start(
    'api',
    [apiDist],
    { ...API_ENV, DATA_DIR: stack.dataDir, DATABASE_URL: stack.databaseUrl },
    root,
  );
  stack.children.push(api);
  await waitFor(`${API}/v1/health`, 60);
  const classes = await measureClasses(await signIn(API, BENCH_EMAIL), texts, 30_000, () => settle(stack));
  // The plans are read on a quiet database.
  await stop(api);

  const targets = checkTargets(classes, FINDER, [LIST, RANKED]);
  const explained: SearchRun['explained'] = {};
  for (const [name, requestClass] of Object.entries(CLASSES)) {
    if (targets.some((t) => t.target.startsWith(`${name} p99`) && !t.met)) {
      log(`explaining the 3 slowest of ${name}`);
      const slowest = classes[name]!.slowest.slice(0, 3).map((t) => t.q);
      explained[name] = await explainSlowest(stack.databaseUrl, requestClass, slowest, BENCH_USER_ID);
    }
  }
  return {
    database: 'postgres',
    serverVersion: stack.serverVersion,
    sizes,
    seed,
    classes,
    targets,
    explained,
  };
}

async function embeddedRun(dataDir: string, apiDist: string, children: ChildProcess[]): Promise<SearchRun> {
  const sizes = sizesFor(SONGS);
  const database = await createDatabase({ dataDir });
  let seed: SearchRun['seed'];
  let texts: Texts;
  let serverVersion: string;
  try {
    await database.migrate();
    const target = statementTarget(
      async (text, params) => (await database.db.executeQuery(CompiledQuery.raw(text, params))).rows as never,
    );
    seed = await seedSearchCatalogue(target, sizes);
    texts = await sampleTexts(target, sizes);
    serverVersion = `PGlite (${(await target.query<{ v: string }>("select current_setting('server_version') as v"))[0]!.v})`;
  } finally {
    await database.close();
  }

  // The API opens the embedded database in DATA_DIR when DATABASE_URL is not set.
  delete process.env.DATABASE_URL;
  const api = start('api', [apiDist], { ...API_ENV, DATA_DIR: dataDir }, root);
  children.push(api);
  await waitFor(`${API}/v1/health`, 120);
  // No view of the embedded database's work from outside: each class starts when the last ends.
  const classes = await measureClasses(await signIn(API, BENCH_EMAIL), texts, 60_000, async () => {});
  await stop(api);
  const targets = checkTargets(classes, FINDER, [LIST, RANKED]);
  return { database: 'embedded', serverVersion, sizes, seed, classes, targets, explained: {} };
}

async function main() {
  const apiDist = path.resolve(root, process.env.BENCH_SEARCH_API ?? 'apps/api/dist/server.mjs');
  if (!existsSync(apiDist)) {
    throw new Error('Build first: pnpm --filter @music/api build (apps/api/dist/server.mjs is missing)');
  }
  const startedAt = Date.now();
  // Whatever happens, what this run started stops and the scratch data goes.
  let cleanup: () => Promise<void>;
  let run: SearchRun;
  if (EMBEDDED) {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'music-search-pglite-'));
    const children: ChildProcess[] = [];
    cleanup = async () => {
      await Promise.all(children.map(stop));
      rmSync(dataDir, { recursive: true, force: true });
    };
    onSignal(cleanup);
    try {
      run = await embeddedRun(dataDir, apiDist, children);
    } finally {
      await cleanup();
    }
  } else {
    const stack = await createScratchDatabase(KEEP ? `music_search_bench_${SONGS}` : undefined);
    cleanup = () => closeStack(stack);
    onSignal(cleanup);
    try {
      run = await postgresRun(stack, apiDist);
    } finally {
      await cleanup();
    }
  }
  printRun(run);
  writeRun(run, startedAt);
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
