/**
 * `pnpm bench:scale`: the cost curve. A throwaway PostgreSQL primary and a streaming replica of it
 * (the fleet tests' own, `@music/fleet/components`), the catalogue grown on the primary by COPY
 * through each size of BENCH_SCALE_SIZES (10k, 100k, 1M songs; the search bench's rows and
 * proportions: a tenth as many artists, a fiftieth playlists, with their search indexes). At each
 * size, once the replica has replayed it all, the built API is started twice: on the primary
 * alone, then with DATABASE_READ_URLS = the replica. Each runs six cases, each a closed loop of
 * BENCH_SCALE_CONNECTIONS for BENCH_SCALE_SECONDS after a warm-up: a song's detail (random ids),
 * the first page of `GET /v1/songs`, a page in the middle of it by `page` (an offset) and the same
 * place by `cursor` (a keyset), the finder searching common words, and appending songs to
 * playlists (a write: on the primary in both). For each: req/s, p50, p99, the buffers the
 * requests cost the bench database (blks_hit and blks_read of pg_stat_database, per request, on
 * each server), and in the replica runs the share of reads the API routed to the replica (its
 * /metrics; a read case with none there fails the run).
 *
 * Out: a Markdown table (for docs/performance.md), bench/results/scale-<date>.json, and the plot
 * docs/perf/scale.svg (scale-plot.ts, which redraws it from a saved JSON).
 *
 * Settings (environment): BENCH_SCALE_SIZES (10000,100000,1000000), BENCH_SCALE_CONNECTIONS (10),
 * BENCH_SCALE_SECONDS (5), BENCH_SCALE_WARM_UP_SECONDS (2), BENCH_SCALE_STATS_WAIT_SECONDS (11:
 * the quiet before each reading of pg_stat_database, see scale-measure.ts), BENCH_SCALE_PLOT
 * (docs/perf/scale.svg), BENCH_SEARCH_API (the build measured; default apps/api/dist/server.mjs).
 *
 * Files: scale-seed.ts (growing the catalogue, the replica's catch-up), scale-cases.ts (the
 * requests), scale-measure.ts (a run and its counters), scale-report.ts, scale-plot.ts.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { createDatabase } from '@music/db';
import {
  findPostgresTools,
  freePort,
  type PostgresInstance,
  startPostgres,
  startReplica,
  until,
} from '@music/fleet/components';
import pg from 'pg';
import { signIn } from './fixtures';
import { closedLoop } from './load';
import { API_ENV, onSignal, stop } from './processes';
import {
  addRequests,
  CASE_NAMES,
  cursorMatches,
  DEEP_CURSOR,
  deepPositions,
  freshPlaylists,
  PLAYLIST_ADD,
  readRequests,
} from './scale-cases';
import {
  type ApiUnderTest,
  backendPids,
  measureCase,
  metricValues,
  quiesce,
  type Servers,
} from './scale-measure';
import { PLOT_FILE, writeScalePlot } from './scale-plot';
import {
  problemsOf,
  type ScaleResults,
  type ScaleRow,
  type ScaleSize,
  scaleTable,
  type Target,
  writeScaleResults,
} from './scale-report';
import { catalogueBytes, growCatalogue, replicaCaughtUp } from './scale-seed';
import { BENCH_EMAIL } from './search-seed';
import { log, root } from './settings';
import { start, waitFor } from './stack';

const SIZES = (process.env.BENCH_SCALE_SIZES ?? '10000,100000,1000000')
  .split(',')
  .map((s) => Number(s.trim()))
  .sort((a, b) => a - b);
const CONNECTIONS = Number(process.env.BENCH_SCALE_CONNECTIONS ?? 10);
const SECONDS = Number(process.env.BENCH_SCALE_SECONDS ?? 5);
const WARM_UP_SECONDS = Number(process.env.BENCH_SCALE_WARM_UP_SECONDS ?? 2);
const STATS_WAIT_SECONDS = Number(process.env.BENCH_SCALE_STATS_WAIT_SECONDS ?? 11);
const DB_NAME = 'music_scale';
const METRICS_TOKEN = 'scale-bench-metrics-token-0123456789';

/** What the run started, to stop whatever happens. */
interface Started {
  primary?: PostgresInstance;
  replica?: PostgresInstance;
  clients: pg.Client[];
  children: ChildProcess[];
  dataDir: string;
}

async function connect(started: Started, url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, application_name: 'scale-bench' });
  client.on('error', () => {});
  await client.connect();
  started.clients.push(client);
  return client;
}

/** The API on the bench database; with `replicaUrl`, reading from it. Resolves once it answers. */
async function startApi(started: Started, apiDist: string, servers: Servers, target: Target, urls: string[]) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = start(
    `api-${target}`,
    [apiDist],
    {
      ...API_ENV,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: started.dataDir,
      DATABASE_URL: urls[0]!,
      METRICS_TOKEN,
      ...(target === 'replica' ? { DATABASE_READ_URLS: urls[1]! } : {}),
    },
    root,
  );
  started.children.push(child);
  await waitFor(`${base}/v1/health`, 60);
  const api: ApiUnderTest = {
    base,
    metricsToken: METRICS_TOKEN,
    probe: { pid: child.pid!, dbPids: backendPids(servers) },
  };
  if (target === 'replica') {
    // The router reads from the replica once a check found it a standby close enough behind.
    await until(
      async () => {
        const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
        return (
          metricValues(await res.text(), 'music_db_replica_up', 'replica')['replica-1'] === 1 || undefined
        );
      },
      30_000,
      'the API to find replica-1 up',
    );
  }
  return { api, child };
}

/** One API (on the primary, or reading from the replica) at one size: every case. */
async function runTarget(
  started: Started,
  apiDist: string,
  servers: Servers,
  urls: string[],
  songs: number,
  target: Target,
): Promise<ScaleRow[]> {
  log(`\n${songs} songs, API reading from the ${target}`);
  const { api, child } = await startApi(started, apiDist, servers, target, urls);
  try {
    const auth = await signIn(api.base, BENCH_EMAIL);
    const withCursors = await cursorMatches(api.base, auth);
    if (!withCursors) log(`  the bench's cursors do not match the API's: ${DEEP_CURSOR} is left out`);
    const positions = await deepPositions(servers.primary, songs, withCursors);
    const tag = `${songs}-${target}`;
    const warmPlaylists = await freshPlaylists(api.base, auth, CONNECTIONS, `${tag} warm-up`);
    const playlists = await freshPlaylists(api.base, auth, CONNECTIONS, tag);
    const load = { connections: CONNECTIONS, seconds: SECONDS, statsWaitMs: STATS_WAIT_SECONDS * 1000 };
    const warm = { connections: CONNECTIONS, seconds: WARM_UP_SECONDS };
    const rows: ScaleRow[] = [];
    for (const name of CASE_NAMES) {
      const write = name === PLAYLIST_ADD;
      const requests = write ? addRequests(playlists, songs, auth, 1) : readRequests(name, positions, auth);
      if (!requests) continue;
      // The warm-up (JIT, pools, plans, caches) runs its own requests: another stream, other playlists.
      const warmRequests = write
        ? addRequests(warmPlaylists, songs, auth, 2)
        : (k: number) => requests(k + CONNECTIONS);
      await closedLoop(api.probe, api.base, warmRequests, warm);
      await quiesce(servers, load.statsWaitMs);
      const row = { songs, target, case: name, ...(await measureCase(servers, api, requests, load)) };
      rows.push(row);
      const b = row.buffers;
      log(
        `  ${name}: ${row.rps} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms; buffers hit/read per request ` +
          `primary ${b.primary.hit}/${b.primary.read}, replica ${b.replica.hit}/${b.replica.read}; ` +
          `routed ${JSON.stringify(row.routed)}${row.errors + row.non2xx ? `; ${row.errors} errors, ${row.non2xx} non-2xx` : ''}`,
      );
    }
    return rows;
  } finally {
    await stop(child);
    started.children.splice(started.children.indexOf(child), 1);
  }
}

async function main() {
  const apiDist = path.resolve(root, process.env.BENCH_SEARCH_API ?? 'apps/api/dist/server.mjs');
  if (!existsSync(apiDist)) throw new Error('Build first: pnpm --filter @music/api build');
  if (SIZES.some((n) => !Number.isInteger(n) || n < 100))
    throw new Error('BENCH_SCALE_SIZES: whole numbers ≥ 100');
  const tools = findPostgresTools();
  if ('unavailable' in tools) throw new Error(`PostgreSQL tools: ${tools.unavailable}`);
  const startedAt = new Date();
  const started: Started = {
    clients: [],
    children: [],
    dataDir: mkdtempSync(path.join(tmpdir(), 'music-scale-')),
  };
  let cleaned: Promise<void> | undefined;
  const cleanup = () => {
    cleaned ??= (async () => {
      await Promise.all(started.children.map(stop));
      await Promise.all(started.clients.map((c) => c.end().catch(() => {})));
      await started.replica?.destroy();
      await started.primary?.destroy();
      rmSync(started.dataDir, { recursive: true, force: true });
    })();
    return cleaned;
  };
  onSignal(cleanup);
  try {
    log('starting a PostgreSQL primary and a streaming replica of it');
    started.primary = await startPostgres(tools);
    const primaryUrl = await started.primary.createDatabase(DB_NAME);
    const database = await createDatabase({ databaseUrl: primaryUrl });
    await database.migrate();
    await database.close();
    started.replica = await startReplica(tools, started.primary);
    const urls = [primaryUrl, started.replica.url(DB_NAME)];
    const servers: Servers = {
      primary: await connect(started, primaryUrl),
      replica: await connect(started, urls[1]!),
      dbName: DB_NAME,
    };
    const setting = async (name: string) =>
      (await servers.primary.query(`show ${name}`)).rows[0][name] as string;
    const sizes: ScaleSize[] = [];
    const rows: ScaleRow[] = [];
    let grownTo = 0;
    for (const songs of SIZES) {
      const seedSeconds = await growCatalogue(servers.primary, grownTo, songs);
      grownTo = songs;
      sizes.push({ songs, seedSeconds, bytes: await catalogueBytes(servers.primary) });
      await replicaCaughtUp(servers.primary, servers.replica, 600_000);
      for (const target of ['primary', 'replica'] as const) {
        rows.push(...(await runTarget(started, apiDist, servers, urls, songs, target)));
      }
    }
    const results: ScaleResults = {
      startedAt: startedAt.toISOString(),
      durationSeconds: Math.round((Date.now() - startedAt.getTime()) / 1000),
      serverVersion: await setting('server_version'),
      sharedBuffers: await setting('shared_buffers'),
      settings: {
        connections: CONNECTIONS,
        seconds: SECONDS,
        warmUpSeconds: WARM_UP_SECONDS,
        statsWaitSeconds: STATS_WAIT_SECONDS,
      },
      sizes,
      rows,
      problems: problemsOf(rows, PLAYLIST_ADD),
    };
    log(
      `\nmachine: ${cpus().length} cores; PostgreSQL ${results.serverVersion}, shared_buffers ${results.sharedBuffers}`,
    );
    log(`\n${scaleTable(rows)}\n`);
    writeScaleResults(results);
    const plot = writeScalePlot(results, process.env.BENCH_SCALE_PLOT ?? PLOT_FILE);
    log(`plot: ${path.relative(root, plot)}`);
    if (results.problems.length > 0) {
      log(`\nPROBLEMS:\n${results.problems.map((p) => `  ${p}`).join('\n')}`);
      process.exitCode = 1;
    }
  } finally {
    await cleanup();
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
