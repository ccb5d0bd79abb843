/**
 * `pnpm bench`: the API against a plain node:http + pg baseline, on a fresh PostgreSQL database
 * seeded with 100k songs, 10k artists, 1k users and 5k playlists. Load comes from this process
 * (autocannon, or an open-loop generator for fixed rates) while the servers run as child
 * processes, so server CPU per request and memory are read from /proc for each of them. Every
 * case alternates API and baseline rounds (AB, BA, AB, ...) and reports medians, because these
 * machines are shared and noisy: read the ratios and the CPU per request, not the raw req/s.
 *
 * The pooler cases run the same API twice, once through a stock transaction-mode PgBouncer of
 * the bench's own (DATABASE_POOLER=transaction) and once straight to PostgreSQL, alternating.
 *
 * Settings (environment): BENCH_SECONDS per round (3), BENCH_ROUNDS (4), BENCH_CONNECTIONS (50),
 * BENCH_CASES (comma-separated substrings of case names: run only those), BENCH_DATABASE_URL
 * (the server to create the scratch database on; default the local one), BENCH_API_NODE_ARGS
 * (space-separated node flags for the API process, to profile it: `--cpu-prof --cpu-prof-dir=...`).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDatabase } from '@music/db';
import { type PgBouncer, startPgBouncer } from '@music/fleet/components';
import pg from 'pg';
import { apiNodeFlags } from '../../scripts/api-start-args.mjs';
import { argonAsyncRate, argonThreadsRate, closeArgonThreads } from './argon';
import {
  CLK_TCK,
  closedLoop,
  cpuTicks,
  leanClosedLoop,
  machineBusyTicks,
  median,
  memory,
  openLoop,
  type Probe,
  type Req,
  type Sample,
  summarise,
} from './load';
import { BENCH_PASSWORD, SIZES, seedBenchData, WORDS } from './seed';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const SERVER_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ONLY = (process.env.BENCH_CASES ?? '')
  .split(',')
  .map((s) => s.trim().toLowerCase())
  .filter(Boolean);
const API_PORT = 4791;
const BASE_PORT = 4792;
const POOLED_PORT = 4793;
const FIXED_RATE = 1000;
const LOGIN_CONNECTIONS = 10;
const READS_DURING_LOGIN_RATE = 100;

/** The cases that compare the API through PgBouncer with the API straight to PostgreSQL. */
const POOLER_CASES = [
  'pooler: GET /v1/songs/{id}',
  'pooler: GET /v1/songs?page=1..10',
  'pooler: GET /v1/songs?search=<word>',
];

const selected = (name: string) => ONLY.length === 0 || ONLY.some((s) => name.toLowerCase().includes(s));
const log = (line: string) => process.stdout.write(`${line}\n`);

function start(name: string, args: string[], env: Record<string, string>, cwd: string) {
  // `node` itself is the server process (no wrapper), so its pid is the one /proc is read for.
  const extra =
    name === 'api' || name === 'api-pooled'
      ? [...apiNodeFlags(), ...(process.env.BENCH_API_NODE_ARGS?.split(' ').filter(Boolean) ?? [])]
      : [];
  const child = spawn(process.execPath, [...extra, ...args], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr?.on('data', (d) => process.stderr.write(`[${name}] ${d}`));
  return child;
}

async function waitFor(url: string, seconds = 30) {
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not come up`);
}

/** Sends one request of each side before loading it: a case that answers errors is a broken bench. */
async function check(base: string, r: Req) {
  const res = await fetch(`${base}${r.path}`, {
    method: r.method ?? 'GET',
    ...(r.headers ? { headers: r.headers } : {}),
    ...(r.body !== undefined ? { body: r.body } : {}),
  });
  if (res.status >= 300)
    throw new Error(`${r.method ?? 'GET'} ${base}${r.path} -> ${res.status} ${await res.text()}`);
}

/** `list` rotated by `by`: connections start at different places of the same list. */
function rotate<T>(list: T[], by: number): T[] {
  const k = ((by % list.length) + list.length) % list.length;
  return [...list.slice(k), ...list.slice(0, k)];
}

interface Case {
  name: string;
  api: (k: number) => Req[];
  baseline: (k: number) => Req[];
  /** The other side is the API too (the /trpc case compares the API with itself). */
  baselineIsApi?: boolean;
  /** The measured side is the API through PgBouncer; the other is the API straight to PostgreSQL. */
  pooled?: boolean;
  connections?: number;
}

interface Row {
  name: string;
  api: Sample;
  baseline?: Sample;
  baselineLabel?: string;
  ratio?: number;
  cpuRatio?: number;
}

const fmt = (n: number | undefined, digits = 0) => (n === undefined ? '' : n.toFixed(digits));

async function main() {
  const apiDist = path.join(root, 'apps/api/dist/server.mjs');
  if (!existsSync(apiDist)) {
    throw new Error('Build first: pnpm --filter @music/api build (apps/api/dist/server.mjs is missing)');
  }
  const startedAt = Date.now();
  const dbName = `music_bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: SERVER_URL });
  await admin.connect();
  const serverVersion = (await admin.query('show server_version')).rows[0].server_version as string;
  await admin.query(`create database "${dbName}"`);
  const url = new URL(SERVER_URL);
  url.pathname = `/${dbName}`;
  const databaseUrl = url.toString();
  const children: ChildProcess[] = [];
  let pgbouncer: PgBouncer | undefined;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'music-bench-'));

  try {
    log(`seeding ${dbName}: ${JSON.stringify(SIZES)}`);
    const database = await createDatabase({ databaseUrl });
    await database.migrate();
    await database.close();
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const seeded = Date.now();
    await seedBenchData(client);
    log(`seeded in ${((Date.now() - seeded) / 1000).toFixed(1)} s`);

    // A listener with a playlist of 20 songs, and one empty playlist per connection for the
    // add/remove case (each connection adds and removes its own songs in its own playlist).
    const { rows: owner } = await client.query(
      `select u.id, u.email, p.id as playlist_id from users u join playlists p on p.user_id = u.id
       where u.role = 'user' order by u.email, p.id limit 1`,
    );
    const { id: ownerId, email, playlist_id: playlistId } = owner[0];
    const scratch: string[] = (
      await client.query(
        `insert into playlists (id, user_id, name) select gen_random_uuid(), $1, 'Bench scratch ' || i
         from generate_series(1, $2::int) as i returning id`,
        [ownerId, CONNECTIONS],
      )
    ).rows.map((r: { id: string }) => r.id);
    const songIds: string[] = (
      await client.query('select id from songs order by random() limit 2000')
    ).rows.map((r: { id: string }) => r.id);
    const { hash } = (await client.query('select password_hash as hash from users limit 1')).rows[0];
    // Every seeded account shares the bench password: the login case signs in as each in turn.
    const loginEmails: string[] = (
      await client.query(`select email from users where role = 'user' order by random()`)
    ).rows.map((r: { email: string }) => r.email);
    await client.end();

    const apiEnv = {
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0123456789',
      LOGIN_MAX_FAILURES_PER_EMAIL: '1000000',
      LOGIN_MAX_FAILURES_PER_ADDRESS: '1000000',
    };
    const api = start(
      'api',
      [apiDist],
      { ...apiEnv, DATABASE_URL: databaseUrl, PORT: String(API_PORT) },
      root,
    );
    const baseline = start(
      'baseline',
      ['--import', 'tsx', path.join(here, 'baseline.ts')],
      { DATABASE_URL: databaseUrl, PORT: String(BASE_PORT) },
      path.join(root, 'bench'),
    );
    children.push(api, baseline);
    const API = `http://127.0.0.1:${API_PORT}`;
    const BASE = `http://127.0.0.1:${BASE_PORT}`;
    const POOLED = `http://127.0.0.1:${POOLED_PORT}`;
    // The same build through PgBouncer, for the pooler cases (started only when one is selected).
    let pooled: ChildProcess | undefined;
    if (POOLER_CASES.some(selected)) {
      pgbouncer = await startPgBouncer({
        serverHost: url.hostname,
        serverPort: Number(url.port || 5432),
        poolSize: Number(process.env.BENCH_PGBOUNCER_POOL_SIZE ?? 20),
      });
      pooled = start(
        'api-pooled',
        [apiDist],
        {
          ...apiEnv,
          DATABASE_URL: pgbouncer.url(dbName),
          DATABASE_POOLER: 'transaction',
          DATABASE_DIRECT_URL: databaseUrl,
          PORT: String(POOLED_PORT),
        },
        root,
      );
      children.push(pooled);
    }
    await Promise.all([
      waitFor(`${API}/v1/health`),
      waitFor(`${BASE}/songs/00000000-0000-0000-0000-000000000000`),
      ...(pooled ? [waitFor(`${POOLED}/v1/health`)] : []),
    ]);

    const login = await fetch(`${API}/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: BENCH_PASSWORD }),
    });
    if (login.status !== 200) throw new Error(`login failed: ${login.status} ${await login.text()}`);
    const token = ((await login.json()) as { accessToken: string }).accessToken;
    const auth = { authorization: `Bearer ${token}` };

    const pages = Array.from({ length: 10 }, (_, k) => k + 1);
    const words = WORDS.slice(0, 50);
    const coldSearches = pages.flatMap((p) => WORDS.map((w) => `search=${w}&page=${p}`));
    const detailApi = songIds.map((id) => ({ path: `/v1/songs/${id}`, headers: auth }));
    const detailBase = songIds.map((id) => ({ path: `/songs/${id}` }));
    // Connection k adds then removes songs [k*40, k*40+40) in its own playlist: the list ends
    // where it started, so cycling it never conflicts.
    const addRemove = (k: number, prefix: string, headers: Record<string, string>) =>
      songIds.slice((k * 40) % songIds.length, ((k * 40) % songIds.length) + 40).flatMap((songId) => [
        {
          method: 'POST',
          path: `${prefix}/playlists/${scratch[k % scratch.length]}/songs`,
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ songId }),
        },
        {
          method: 'DELETE',
          path: `${prefix}/playlists/${scratch[k % scratch.length]}/songs/${songId}`,
          headers,
        },
      ]);

    const cases: Case[] = [
      {
        name: 'GET /v1/songs/{id}',
        api: (k) => rotate(detailApi, k * 37),
        baseline: (k) => rotate(detailBase, k * 37),
      },
      {
        name: 'GET /v1/songs?page=1..10',
        api: (k) => rotate(pages, k).map((p) => ({ path: `/v1/songs?page=${p}`, headers: auth })),
        baseline: (k) => rotate(pages, k).map((p) => ({ path: `/songs?page=${p}` })),
      },
      {
        name: 'GET /v1/songs?search=<word>',
        api: (k) => rotate(words, k).map((w) => ({ path: `/v1/songs?search=${w}`, headers: auth })),
        baseline: (k) => rotate(words, k).map((w) => ({ path: `/songs?search=${w}` })),
      },
      {
        // 186 words x pages 1-10: more distinct searches than the API's result cache holds
        // (1,000), cycled in order, so every request is a miss: the search itself.
        name: 'GET /v1/songs?search=<word>&page=<n> (uncached)',
        api: (k) => rotate(coldSearches, k * 37).map((q) => ({ path: `/v1/songs?${q}`, headers: auth })),
        baseline: (k) => rotate(coldSearches, k * 37).map((q) => ({ path: `/songs?${q}` })),
      },
      {
        name: 'GET /v1/playlists/{id}/songs',
        api: () => [{ path: `/v1/playlists/${playlistId}/songs`, headers: auth }],
        baseline: () => [{ path: `/playlists/${playlistId}/songs` }],
      },
      {
        name: 'POST+DELETE /v1/playlists/{id}/songs',
        api: (k) => addRemove(k, '/v1', auth),
        baseline: (k) => addRemove(k, '', {}),
      },
      {
        name: 'GET /trpc/songs.get (baseline: /v1)',
        api: (k) =>
          rotate(songIds, k * 37).map((songId) => ({
            path: `/trpc/songs.get?input=${encodeURIComponent(JSON.stringify({ songId }))}`,
            headers: auth,
          })),
        baseline: (k) => rotate(detailApi, k * 37),
        baselineIsApi: true,
      },
      {
        name: POOLER_CASES[0]!,
        api: (k) => rotate(detailApi, k * 37),
        baseline: (k) => rotate(detailApi, k * 37),
        pooled: true,
      },
      {
        name: POOLER_CASES[1]!,
        api: (k) => rotate(pages, k).map((p) => ({ path: `/v1/songs?page=${p}`, headers: auth })),
        baseline: (k) => rotate(pages, k).map((p) => ({ path: `/v1/songs?page=${p}`, headers: auth })),
        pooled: true,
      },
      {
        name: POOLER_CASES[2]!,
        api: (k) => rotate(words, k).map((w) => ({ path: `/v1/songs?search=${w}`, headers: auth })),
        baseline: (k) => rotate(words, k).map((w) => ({ path: `/v1/songs?search=${w}`, headers: auth })),
        pooled: true,
      },
    ];

    const rows: Row[] = [];
    const rounds: Record<string, { api: Sample[]; baseline: Sample[] }> = {};
    const probe = (child: ChildProcess, applicationName: string): Probe => ({
      pid: child.pid!,
      dbPids: async () =>
        (
          await admin.query('select pid from pg_stat_activity where datname = $1 and application_name = $2', [
            dbName,
            applicationName,
          ])
        ).rows.map((r: { pid: number }) => r.pid),
    });
    // A round ends when its time is up, but the database may still be working through the
    // queries the side just sent (the baseline's slow searches take seconds): wait until it is
    // idle, so that no round pays for the previous one's tail.
    const settle = async () => {
      const until = Date.now() + 15_000;
      while (Date.now() < until) {
        const { rows } = await admin.query(
          `select count(*)::int as n from pg_stat_activity
           where datname = $1 and state = 'active' and pid <> pg_backend_pid()`,
          [dbName],
        );
        if (rows[0].n === 0) return;
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const apiProbe = probe(api, 'music-api');
    const baseProbe = probe(baseline, 'bench-baseline');
    // Through the pooler, PgBouncer's own process counts as database-side CPU.
    const pooledProbe: Probe | undefined = pooled && {
      pid: pooled.pid!,
      dbPids: async () => [...(await apiProbe.dbPids()), ...(pgbouncer?.pid ? [pgbouncer.pid] : [])],
    };

    for (const c of cases.filter((c) => selected(c.name))) {
      const other = c.baselineIsApi || c.pooled ? apiProbe : baseProbe;
      const otherBase = c.baselineIsApi || c.pooled ? API : BASE;
      const [measured, measuredBase] = c.pooled && pooledProbe ? [pooledProbe, POOLED] : [apiProbe, API];
      const connections = c.connections ?? CONNECTIONS;
      // The first two requests: for the add/remove case that is one add and its removal.
      for (const r of c.api(0).slice(0, 2)) await check(measuredBase, r);
      for (const r of c.baseline(0).slice(0, 2)) await check(otherBase, r);
      // Warm both sides (JIT, statement caches, buffers) before measuring.
      await closedLoop(measured, measuredBase, c.api, { connections, seconds: 1 });
      await settle();
      await closedLoop(other, otherBase, c.baseline, { connections, seconds: 1 });
      const a: Sample[] = [];
      const b: Sample[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        for (const side of r % 2 === 0 ? ['a', 'b'] : ['b', 'a']) {
          await settle();
          if (side === 'a')
            a.push(await closedLoop(measured, measuredBase, c.api, { connections, seconds: SECONDS }));
          else b.push(await closedLoop(other, otherBase, c.baseline, { connections, seconds: SECONDS }));
        }
      }
      const A = summarise(a);
      const B = summarise(b);
      rounds[c.name] = { api: a, baseline: b };
      const row: Row = {
        name: c.name,
        api: A,
        baseline: B,
        baselineLabel: c.pooled ? 'API direct' : c.baselineIsApi ? '/v1 (API)' : 'baseline',
        ratio: A.rps / B.rps,
        cpuRatio: A.cpuUsPerReq / Math.max(1, B.cpuUsPerReq),
      };
      rows.push(row);
      log(
        `${c.name}: ${A.rps} req/s, p99 ${A.p99} ms, ${A.cpuUsPerReq} us/req vs ${B.rps} req/s, ` +
          `${B.cpuUsPerReq} us/req -> ${row.ratio!.toFixed(2)}x req/s, ${row.cpuRatio!.toFixed(2)}x CPU` +
          (A.errors + A.non2xx + B.errors + B.non2xx
            ? ` [errors/non-2xx: api ${A.errors}/${A.non2xx}, other ${B.errors}/${B.non2xx}]`
            : ''),
      );
    }

    // Latency at a fixed offered rate (open loop), API and baseline alternating.
    let fixed: Row | undefined;
    if (selected(`GET /v1/songs/{id} @${FIXED_RATE} req/s`)) {
      const a: Sample[] = [];
      const b: Sample[] = [];
      const opts = { rate: FIXED_RATE, seconds: SECONDS };
      // Warm both sides first, as every closed-loop case does: run alone (BENCH_CASES), this case
      // would otherwise measure a cold JIT and cold caches (p99 ~70 ms instead of ~7 ms).
      await openLoop(apiProbe, API, detailApi, { rate: FIXED_RATE, seconds: 1 });
      await openLoop(baseProbe, BASE, detailBase, { rate: FIXED_RATE, seconds: 1 });
      for (let r = 0; r < ROUNDS; r++) {
        for (const side of r % 2 === 0 ? ['a', 'b'] : ['b', 'a']) {
          await settle();
          if (side === 'a') a.push(await openLoop(apiProbe, API, detailApi, opts));
          else b.push(await openLoop(baseProbe, BASE, detailBase, opts));
        }
      }
      const A = summarise(a);
      const B = summarise(b);
      fixed = {
        name: `GET /v1/songs/{id} @${FIXED_RATE} req/s offered`,
        api: A,
        baseline: B,
        baselineLabel: 'baseline',
        ratio: A.rps / B.rps,
        cpuRatio: A.cpuUsPerReq / Math.max(1, B.cpuUsPerReq),
      };
      rows.push(fixed);
      rounds[fixed.name] = { api: a, baseline: b };
      log(`${fixed.name}: p50 ${A.p50} ms, p99 ${A.p99} ms (baseline p99 ${B.p99} ms)`);
    }

    // Login: throughput against bare argon2id verification (alternating), and the p99 of a
    // parallel song-detail load meanwhile.
    let loginRow: Row | undefined;
    let readsRow: Row | undefined;
    let argon = 0;
    let argonAsync = 0;
    const loginCores: string[] = [];
    if (selected('POST /v1/auth/login')) {
      // Many accounts, as in a real sign-in storm: with one account signing in 150 times a second,
      // every new session's foreign-key check would lock the same users row.
      const loginReqs: Req[] = loginEmails.map((address) => ({
        method: 'POST',
        path: '/v1/auth/login',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: address, password: BENCH_PASSWORD }),
      }));
      const logins: Sample[] = [];
      const reads: Sample[] = [];
      const argons: number[] = [];
      const argonsAsync: number[] = [];
      const loginRound = async () => {
        const machine0 = machineBusyTicks();
        const api0 = cpuTicks(api.pid!);
        const loop0 = cpuTicks(api.pid!, api.pid!);
        const generator0 = process.cpuUsage();
        const [l, rd] = await Promise.all([
          leanClosedLoop(apiProbe, API, loginReqs, { connections: LOGIN_CONNECTIONS, seconds: SECONDS }),
          openLoop(apiProbe, API, detailApi, { rate: READS_DURING_LOGIN_RATE, seconds: SECONDS }),
        ]);
        logins.push(l);
        reads.push(rd);
        // Where the machine's cores went during the round (seconds of CPU per second).
        const generator = process.cpuUsage(generator0);
        const machine = (machineBusyTicks() - machine0) / CLK_TCK / SECONDS;
        const apiCores = (cpuTicks(api.pid!) - api0) / CLK_TCK / SECONDS;
        // The API's main thread (event loop); the rest of its CPU is the hashing threads'.
        const loopCores = (cpuTicks(api.pid!, api.pid!) - loop0) / CLK_TCK / SECONDS;
        // Both loads watched the same database backends over the same seconds: count them once.
        const db = (l.dbCpuUsPerReq * l.rps) / 1e6;
        const gen = (generator.user + generator.system) / 1e6 / SECONDS;
        loginCores.push(
          `API ${apiCores.toFixed(2)} (event loop ${loopCores.toFixed(2)}, ${((loopCores * 1e3) / l.rps).toFixed(2)} ms a login), database ${db.toFixed(2)}, load generator ${gen.toFixed(2)}, ` +
            `rest ${Math.max(0, machine - apiCores - db - gen).toFixed(2)}, idle ${Math.max(0, availableParallelism() - machine).toFixed(2)}`,
        );
      };
      // Warm both sides (the baseline's threads start here, not in its first round). A sign-in
      // costs ~100 times a read, so 1 s (as elsewhere) is only ~15 per connection: the login
      // path's JIT was still warming through the first measured rounds.
      await leanClosedLoop(apiProbe, API, loginReqs, { connections: LOGIN_CONNECTIONS, seconds: SECONDS });
      await argonThreadsRate(hash, BENCH_PASSWORD, 1);
      for (let r = 0; r < ROUNDS; r++) {
        for (const side of r % 2 === 0 ? ['a', 'b'] : ['b', 'a']) {
          await settle();
          if (side === 'a') await loginRound();
          else {
            argons.push(await argonThreadsRate(hash, BENCH_PASSWORD, SECONDS));
            await settle();
            argonsAsync.push(await argonAsyncRate(hash, BENCH_PASSWORD, SECONDS));
          }
        }
      }
      await closeArgonThreads();
      argon = median(argons);
      argonAsync = median(argonsAsync);
      const L = summarise(logins);
      loginRow = {
        name: 'POST /v1/auth/login',
        api: L,
        baselineLabel: `bare argon2id verify, ${availableParallelism()} threads`,
        baseline: {
          rps: argon,
          p50: 0,
          p99: 0,
          cpuUsPerReq: 0,
          dbCpuUsPerReq: 0,
          peakRssMb: 0,
          errors: 0,
          non2xx: 0,
        },
        ratio: L.rps / argon,
      };
      readsRow = {
        name: `  GET /v1/songs/{id} @${READS_DURING_LOGIN_RATE} req/s during login`,
        api: summarise(reads),
      };
      rows.push(loginRow, readsRow);
      rounds[loginRow.name] = { api: logins, baseline: [] };
      rounds[readsRow.name] = { api: reads, baseline: [] };
      log(
        `login: ${L.rps} req/s vs bare argon2id ${argon}/s on ${availableParallelism()} threads -> ${loginRow.ratio!.toFixed(2)}x` +
          ` (the library's async verify, ${availableParallelism()} in flight: ${argonAsync}/s -> ${(L.rps / argonAsync).toFixed(2)}x)`,
      );
      for (const [i, line] of loginCores.entries()) log(`  login round ${i + 1}, cores used: ${line}`);
    }

    const mem = memory(api.pid!);
    const byName = (prefix: string) => rows.find((r) => r.name.startsWith(prefix));
    const targets: Array<{ target: string; value: string; met: boolean }> = [];
    const target = (
      label: string,
      row: Row | undefined,
      value: (r: Row) => number,
      ok: (v: number) => boolean,
      unit = '',
    ) => {
      if (!row) return;
      const v = value(row);
      // A case that served (almost) nothing, or more than 1% errors, meets no target.
      const failed = row.api.errors + row.api.non2xx;
      const served = row.api.rps >= 1 && failed <= 0.01 * row.api.rps * SECONDS * ROUNDS;
      targets.push({ target: label, value: `${fmt(v, unit === 'x' ? 2 : 0)}${unit}`, met: served && ok(v) });
    };
    const detail = rows.find((r) => r.name === 'GET /v1/songs/{id}');
    target(
      'song detail >= 0.8x baseline req/s',
      detail,
      (r) => r.ratio!,
      (v) => v >= 0.8,
      'x',
    );
    target(
      'song detail <= 2x baseline CPU/request',
      detail,
      (r) => r.cpuRatio!,
      (v) => v <= 2,
      'x',
    );
    target(
      `song detail p99 < 25 ms at ${FIXED_RATE} req/s`,
      fixed,
      (r) => r.api.p99,
      (v) => v < 25,
      ' ms',
    );
    target(
      'pages 1-10 >= 5x naive page+count(*)',
      byName('GET /v1/songs?page'),
      (r) => r.ratio!,
      (v) => v >= 5,
      'x',
    );
    for (const [label, search] of [
      ['search (50 words, repeated)', rows.find((r) => r.name === 'GET /v1/songs?search=<word>')],
      ['search (uncached)', byName('GET /v1/songs?search=<word>&page')],
    ] as const) {
      target(
        `${label} >= 250 req/s`,
        search,
        (r) => r.api.rps,
        (v) => v >= 250,
        ' req/s',
      );
      target(
        `${label} p99 < 300 ms`,
        search,
        (r) => r.api.p99,
        (v) => v < 300,
        ' ms',
      );
    }
    target(
      'login >= 0.8x bare argon2id',
      loginRow,
      (r) => r.ratio!,
      (v) => v >= 0.8,
      'x',
    );
    target(
      'reads during login p99 < 100 ms',
      readsRow,
      (r) => r.api.p99,
      (v) => v < 100,
      ' ms',
    );
    target(
      '/trpc within 10% of /v1',
      byName('GET /trpc'),
      (r) => r.ratio!,
      (v) => v >= 0.9,
      'x',
    );
    for (const name of POOLER_CASES) {
      target(
        `${name.slice('pooler: '.length)} through PgBouncer >= 0.8x direct`,
        rows.find((r) => r.name === name),
        (r) => r.ratio!,
        (v) => v >= 0.8,
        'x',
      );
    }
    targets.push({
      target: 'API RSS after the run < 200 MB',
      value: `${mem.rssMb} MB`,
      met: mem.rssMb < 200,
    });

    const table: string[][] = [
      [
        'case',
        'req/s',
        'p50 ms',
        'p99 ms',
        'CPU us/req',
        'DB us/req',
        'peak RSS MB',
        'baseline req/s',
        'base p99 ms',
        'base CPU us/req',
        'base DB us/req',
        'ratio req/s',
        'ratio CPU',
        'errors',
      ],
      ...rows.map((r) => [
        r.name,
        String(r.api.rps),
        String(r.api.p50),
        String(r.api.p99),
        r.api.cpuUsPerReq ? String(r.api.cpuUsPerReq) : '',
        r.api.dbCpuUsPerReq ? String(r.api.dbCpuUsPerReq) : '',
        String(r.api.peakRssMb),
        r.baseline
          ? `${r.baseline.rps}${r.baselineLabel && r.baselineLabel !== 'baseline' ? ` (${r.baselineLabel})` : ''}`
          : '',
        r.baseline?.p99 ? String(r.baseline.p99) : '',
        r.baseline?.cpuUsPerReq ? String(r.baseline.cpuUsPerReq) : '',
        r.baseline?.dbCpuUsPerReq ? String(r.baseline.dbCpuUsPerReq) : '',
        fmt(r.ratio, 2),
        fmt(r.cpuRatio, 2),
        String(r.api.errors + r.api.non2xx + (r.baseline ? r.baseline.errors + r.baseline.non2xx : 0)),
      ]),
    ];
    const widths = table[0]!.map((_, col) => Math.max(...table.map((row) => row[col]!.length)));
    log(
      `\n${table
        .map((row) =>
          row
            .map((cell, col) => cell.padEnd(widths[col]!))
            .join('  ')
            .trimEnd(),
        )
        .join('\n')}`,
    );
    log(`\nAPI memory after the run: RSS ${mem.rssMb} MB, peak ${mem.peakMb} MB`);
    log('\ntargets:');
    for (const t of targets) log(`  ${t.met ? 'met   ' : 'MISSED'}  ${t.target}: ${t.value}`);

    const report = {
      date: new Date().toISOString(),
      machine: {
        cpus: cpus().length,
        model: cpus()[0]?.model,
        node: process.version,
        postgres: serverVersion,
      },
      settings: { seconds: SECONDS, rounds: ROUNDS, connections: CONNECTIONS, sizes: SIZES, only: ONLY },
      durationSeconds: Math.round((Date.now() - startedAt) / 1000),
      cases: rows,
      rounds,
      bareArgon2PerSecond: { threads: argon, async: argonAsync },
      loginRoundCores: loginCores,
      apiMemory: mem,
      targets,
    };
    const outDir = path.join(root, 'bench/results');
    mkdirSync(outDir, { recursive: true });
    const file = path.join(outDir, `${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    writeFileSync(file, JSON.stringify(report, null, 2));
    log(`results: ${path.relative(root, file)} (${report.durationSeconds} s)`);
  } finally {
    for (const child of children) child.kill('SIGINT');
    await new Promise((r) => setTimeout(r, 1000));
    await pgbouncer?.destroy();
    await admin.query(`drop database if exists "${dbName}" with (force)`).catch(() => {});
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
