// The closed-loop cases (the API, or the API through PgBouncer, against the other side, in
// alternating rounds) and the song detail at a fixed offered rate.

import type { Fixtures } from './fixtures';
import { closedLoop, openLoop, summarise } from './load';
import type { Req, Sample } from './measure';
import type { Probe } from './proc';
import { compare, type Results } from './report';
import { WORDS } from './seed';
import { CONNECTIONS, FIXED_RATE, log, ROUNDS, SECONDS } from './settings';
import { API, BASE, BEFORE, POOLED, type Servers } from './stack';

/** The cases that compare the API through PgBouncer with the API straight to PostgreSQL. */
/** The cases that compare this build with another (BENCH_COMPARE_API); run only when it is set. */
export const AB_CASES = [
  'A/B: GET /v1/songs/{id}',
  'A/B: GET /trpc/songs.get',
  'A/B: GET /v1/songs?page=1..10',
];

/**
 * Writes against the build before (BENCH_COMPARE_API): what a write's events in the change
 * feed's outbox cost. Reported, with no target: a write does more work than before by design.
 */
export const WRITE_AB_CASES = [
  'A/B write: POST /v1/songs',
  'A/B write: POST+DELETE /v1/playlists/{id}/songs',
];

export const POOLER_CASES = [
  'pooler: GET /v1/songs/{id}',
  'pooler: GET /v1/songs?page=1..10',
  'pooler: GET /v1/songs?search=<word>',
];

export interface Case {
  name: string;
  api: (k: number) => Req[];
  baseline: (k: number) => Req[];
  /** The other side is the API too (the /trpc case compares the API with itself). */
  baselineIsApi?: boolean;
  /** What the report calls the other side, when it is the API (default `/v1 (API)`). */
  baselineLabel?: string;
  /**
   * Measured both ways round (see `runBothOrders`): for two sides of the same server, whose
   * difference is smaller than the bench's bias towards the side it calls the baseline.
   */
  bothOrders?: boolean;
  /** The measured side is the API through PgBouncer; the other is the API straight to PostgreSQL. */
  pooled?: boolean;
  /** The other side is another build of the API (BENCH_COMPARE_API), sent the same requests. */
  before?: boolean;
  /** The servers swapped too (set by `runBothOrders`): the measured side is the other server. */
  swapped?: boolean;
  connections?: number;
}

/** `list` rotated by `by`: connections start at different places of the same list. */
function rotate<T>(list: T[], by: number): T[] {
  const k = ((by % list.length) + list.length) % list.length;
  return [...list.slice(k), ...list.slice(0, k)];
}

/** Song detail requests, to the API and to the baseline (the fixed-rate case uses them too). */
export function songDetails(f: Fixtures, auth: Record<string, string>) {
  return {
    api: f.songIds.map((id) => ({ path: `/v1/songs/${id}`, headers: auth })),
    baseline: f.songIds.map((id) => ({ path: `/songs/${id}` })),
  };
}

/** The case that compares an API key's check with a session's, on the song detail. */
export const KEY_CASE = 'GET /v1/songs/{id} with an API key (baseline: a session)';

export function buildCases(
  f: Fixtures,
  auth: Record<string, string>,
  keyAuth: Record<string, string>,
  adminAuth: Record<string, string>,
): Case[] {
  const pages = Array.from({ length: 10 }, (_, k) => k + 1);
  const words = WORDS.slice(0, 50);
  const coldSearches = pages.flatMap((p) => WORDS.map((w) => `search=${w}&page=${p}`));
  const detail = songDetails(f, auth);
  const apiDetail = (k: number) => rotate(detail.api, k * 37);
  const trpcDetail = (k: number) =>
    rotate(f.songIds, k * 37).map((songId) => ({
      path: `/trpc/songs.get?input=${encodeURIComponent(JSON.stringify({ songId }))}`,
      headers: auth,
    }));
  const apiPages = (k: number) =>
    rotate(pages, k).map((p) => ({ path: `/v1/songs?page=${p}`, headers: auth }));
  const apiSearch = (k: number) =>
    rotate(words, k).map((w) => ({ path: `/v1/songs?search=${w}`, headers: auth }));
  // Connection k adds then removes songs [k*40, k*40+40) in its own playlist: the list ends
  // where it started, so cycling it never conflicts.
  const addRemove = (k: number, prefix: string, headers: Record<string, string>) =>
    f.songIds.slice((k * 40) % f.songIds.length, ((k * 40) % f.songIds.length) + 40).flatMap((songId) => [
      {
        method: 'POST',
        path: `${prefix}/playlists/${f.scratch[k % f.scratch.length]}/songs`,
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ songId }),
      },
      {
        method: 'DELETE',
        path: `${prefix}/playlists/${f.scratch[k % f.scratch.length]}/songs/${songId}`,
        headers,
      },
    ]);

  // Connection k creates songs of its own titles; the catalogue grows by each round's creations.
  const songCreates = (k: number) =>
    Array.from({ length: 100 }, (_, i) => ({
      method: 'POST',
      path: '/v1/songs',
      headers: { ...adminAuth, 'content-type': 'application/json' },
      body: JSON.stringify({ title: `Bench write ${k}.${i}`, album: 'Bench writes', duration: 120 + i }),
    }));

  return [
    { name: 'GET /v1/songs/{id}', api: apiDetail, baseline: (k) => rotate(detail.baseline, k * 37) },
    {
      name: 'GET /v1/songs?page=1..10',
      api: apiPages,
      baseline: (k) => rotate(pages, k).map((p) => ({ path: `/songs?page=${p}` })),
    },
    {
      name: 'GET /v1/songs?search=<word>',
      api: apiSearch,
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
      api: () => [{ path: `/v1/playlists/${f.playlistId}/songs`, headers: auth }],
      baseline: () => [{ path: `/playlists/${f.playlistId}/songs` }],
    },
    {
      name: 'POST+DELETE /v1/playlists/{id}/songs',
      api: (k) => addRemove(k, '/v1', auth),
      baseline: (k) => addRemove(k, '', {}),
    },
    {
      name: 'GET /trpc/songs.get (baseline: /v1)',
      api: trpcDetail,
      baseline: apiDetail,
      baselineIsApi: true,
    },
    {
      // The same reads, one side authenticated by an API key (prefix lookup and SHA-256), the
      // other by a session's access token (JWT and the session's row).
      name: KEY_CASE,
      api: (k) => rotate(f.songIds, k * 37).map((id) => ({ path: `/v1/songs/${id}`, headers: keyAuth })),
      baseline: apiDetail,
      baselineIsApi: true,
      baselineLabel: 'session',
      bothOrders: true,
    },
    { name: POOLER_CASES[0]!, api: apiDetail, baseline: apiDetail, pooled: true },
    { name: POOLER_CASES[1]!, api: apiPages, baseline: apiPages, pooled: true },
    { name: POOLER_CASES[2]!, api: apiSearch, baseline: apiSearch, pooled: true },
    // Both orders: this build is the measured side once and the other side once, so the bench's
    // bias against its measured side (below) does not pass for a difference between the builds
    // (a bias of one process over the other stays: docs/performance.md, "Running the benchmark").
    { name: AB_CASES[0]!, api: apiDetail, baseline: apiDetail, before: true, bothOrders: true },
    { name: AB_CASES[1]!, api: trpcDetail, baseline: trpcDetail, before: true, bothOrders: true },
    { name: AB_CASES[2]!, api: apiPages, baseline: apiPages, before: true, bothOrders: true },
    { name: WRITE_AB_CASES[0]!, api: songCreates, baseline: songCreates, before: true, bothOrders: true },
    {
      name: WRITE_AB_CASES[1]!,
      api: (k) => addRemove(k, '/v1', auth),
      baseline: (k) => addRemove(k, '/v1', auth),
      before: true,
      bothOrders: true,
    },
  ];
}

/**
 * ROUNDS rounds of each side, alternating which goes first (AB, BA, AB, ...), the database idle
 * before each: on a shared, noisy machine neither side gets the better half of the run.
 */
export async function alternate(
  settle: () => Promise<void>,
  sideA: () => Promise<void>,
  sideB: () => Promise<void>,
): Promise<void> {
  for (let r = 0; r < ROUNDS; r++) {
    for (const side of r % 2 === 0 ? ['a', 'b'] : ['b', 'a']) {
      await settle();
      await (side === 'a' ? sideA() : sideB());
    }
  }
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

export async function runCase(c: Case, servers: Servers, settle: () => Promise<void>, results: Results) {
  const [second, secondBase]: [Probe, string] =
    c.before && servers.before
      ? [servers.before, BEFORE]
      : c.baselineIsApi || c.pooled
        ? [servers.api, API]
        : [servers.baseline, BASE];
  const [first, firstBase]: [Probe, string] =
    c.pooled && servers.pooled ? [servers.pooled, POOLED] : [servers.api, API];
  const sides: [Probe, string][] = [
    [first, firstBase],
    [second, secondBase],
  ];
  if (c.swapped) sides.reverse();
  const [[measured, measuredBase], [other, otherBase]] = sides as [[Probe, string], [Probe, string]];
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
  await alternate(
    settle,
    async () =>
      void a.push(await closedLoop(measured, measuredBase, c.api, { connections, seconds: SECONDS })),
    async () =>
      void b.push(await closedLoop(other, otherBase, c.baseline, { connections, seconds: SECONDS })),
  );
  const label = c.before
    ? 'before'
    : c.pooled
      ? 'API direct'
      : c.baselineIsApi
        ? (c.baselineLabel ?? '/v1 (API)')
        : 'baseline';
  const row = compare(c.name, summarise(a), summarise(b), label);
  results.rows.push(row);
  results.rounds[c.name] = { api: a, baseline: b };
  const { api: A, baseline: B } = row;
  log(
    `${c.name}: ${A.rps} req/s, p99 ${A.p99} ms, ${A.cpuUsPerReq} us/req vs ${B!.rps} req/s, ` +
      `${B!.cpuUsPerReq} us/req -> ${row.ratio!.toFixed(2)}x req/s, ${row.cpuRatio!.toFixed(2)}x CPU` +
      (A.errors + A.non2xx + B!.errors + B!.non2xx
        ? ` [errors/non-2xx: api ${A.errors}/${A.non2xx}, other ${B!.errors}/${B!.non2xx}]`
        : ''),
  );
}

/**
 * A case run as given, then with its sides swapped (requests and servers); its row's ratios are
 * the geometric mean of the forward ratio and the inverse of the reversed one. The measured side of a case comes out
 * 8-12% slower than the same requests as its baseline on this machine (each side's requests run
 * in its own closed loop, and the order of rounds alternates, yet the bias stays), which hides a
 * difference of a few percent; measured both ways, the bias cancels.
 */
export async function runBothOrders(
  c: Case,
  servers: Servers,
  settle: () => Promise<void>,
  results: Results,
) {
  await runCase(c, servers, settle, results);
  const forward = results.rows.pop()!;
  await runCase(
    { ...c, name: `${c.name} (reversed)`, api: c.baseline, baseline: c.api, swapped: true },
    servers,
    settle,
    results,
  );
  const reversed = results.rows.pop()!;
  const ratio = Math.sqrt(forward.ratio! / reversed.ratio!);
  const cpuRatio = Math.sqrt(forward.cpuRatio! / reversed.cpuRatio!);
  results.rows.push({ ...forward, ratio, cpuRatio });
  log(
    `${c.name}, both orders: ${ratio.toFixed(2)}x req/s, ${cpuRatio.toFixed(2)}x CPU ` +
      `(forward ${forward.ratio!.toFixed(2)}x, reversed ${(1 / reversed.ratio!).toFixed(2)}x)`,
  );
}

export const FIXED_RATE_CASE = `GET /v1/songs/{id} @${FIXED_RATE} req/s`;

/** Latency at a fixed offered rate (open loop), API and baseline alternating. */
export async function runFixedRate(
  detail: { api: Req[]; baseline: Req[] },
  servers: Servers,
  settle: () => Promise<void>,
  results: Results,
) {
  const a: Sample[] = [];
  const b: Sample[] = [];
  const opts = { rate: FIXED_RATE, seconds: SECONDS };
  // Warm both sides first, as every closed-loop case does: run alone (BENCH_CASES), this case
  // would otherwise measure a cold JIT and cold caches (p99 ~70 ms instead of ~7 ms).
  await openLoop(servers.api, API, detail.api, { rate: FIXED_RATE, seconds: 1 });
  await openLoop(servers.baseline, BASE, detail.baseline, { rate: FIXED_RATE, seconds: 1 });
  await alternate(
    settle,
    async () => void a.push(await openLoop(servers.api, API, detail.api, opts)),
    async () => void b.push(await openLoop(servers.baseline, BASE, detail.baseline, opts)),
  );
  const row = compare(`${FIXED_RATE_CASE} offered`, summarise(a), summarise(b), 'baseline');
  results.rows.push(row);
  results.rounds[row.name] = { api: a, baseline: b };
  log(`${row.name}: p50 ${row.api.p50} ms, p99 ${row.api.p99} ms (baseline p99 ${row.baseline!.p99} ms)`);
}
