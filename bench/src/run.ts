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
 * (space-separated node flags for the API process, to profile it: `--cpu-prof --cpu-prof-dir=...`),
 * BENCH_PGBOUNCER_POOL_SIZE (server connections of the pooler cases' PgBouncer, 20),
 * BENCH_COMPARE_API (another build's apps/api/dist/server.mjs: the A/B cases measure this build
 * against it on the same database, alternating rounds, e.g. the build before a change).
 *
 * Files: settings.ts (the above), stack.ts (scratch database, servers, PgBouncer), fixtures.ts
 * (seeding, sign-in), cases.ts (the closed-loop and fixed-rate cases), login-case.ts, load.ts
 * (the load generators), lean-client.ts, proc.ts (CPU and memory from /proc), report.ts.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  AB_CASES,
  buildCases,
  FIXED_RATE_CASE,
  POOLER_CASES,
  runBothOrders,
  runCase,
  runFixedRate,
  songDetails,
} from './cases';
import { makeApiKey, seedScratchDatabase, signIn } from './fixtures';
import { LOGIN_CASE, type LoginFigures, runLoginCase } from './login-case';
import { memory } from './proc';
import { checkTargets, printReport, type Results, writeReport } from './report';
import { root, selected } from './settings';
import { API, closeStack, createScratchDatabase, settle, startServers } from './stack';

async function main() {
  const apiDist = path.join(root, 'apps/api/dist/server.mjs');
  if (!existsSync(apiDist)) {
    throw new Error('Build first: pnpm --filter @music/api build (apps/api/dist/server.mjs is missing)');
  }
  const startedAt = Date.now();
  const stack = await createScratchDatabase();
  try {
    const fixtures = await seedScratchDatabase(stack);
    const servers = await startServers(stack, apiDist, POOLER_CASES.some(selected));
    const auth = await signIn(API, fixtures.email);
    const keyAuth = await makeApiKey(API, auth);
    const adminAuth = await signIn(API, fixtures.adminEmail);
    const settled = () => settle(stack);
    const results: Results = { rows: [], rounds: {} };

    const cases = buildCases(fixtures, auth, keyAuth, adminAuth).filter(
      (c) => selected(c.name) && (!c.before || servers.before),
    );
    for (const c of cases) {
      await (c.bothOrders ? runBothOrders : runCase)(c, servers, settled, results);
    }
    const detail = songDetails(fixtures, auth);
    if (selected(FIXED_RATE_CASE)) await runFixedRate(detail, servers, settled, results);
    let login: LoginFigures = { argon: 0, argonAsync: 0, loginCores: [] };
    if (selected(LOGIN_CASE)) login = await runLoginCase(fixtures, detail.api, servers, settled, results);

    const mem = memory(servers.api.pid);
    const targets = checkTargets(results.rows, POOLER_CASES, AB_CASES, mem.rssMb);
    printReport(results.rows, mem, targets);
    writeReport(results, {
      startedAt,
      serverVersion: stack.serverVersion,
      bareArgon2PerSecond: { threads: login.argon, async: login.argonAsync },
      loginRoundCores: login.loginCores,
      apiMemory: mem,
      targets,
    });
  } finally {
    await closeStack(stack);
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
