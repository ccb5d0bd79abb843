import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestApi } from '../support/harness';
import { type PromFamily, parseExposition, sampleSum } from '../support/prometheus';

const TOKEN = 'metrics-token-of-the-tests-0123';
const api = await startTestApi({
  METRICS_TOKEN: TOKEN,
  LOGIN_MAX_FAILURES_PER_EMAIL: 1,
  HOUSEKEEPING_INTERVAL_SECONDS: 1,
});
const plain = await startTestApi();
afterAll(() => Promise.all([api.close(), plain.close()]));

const origin = api.server.url;
const reader = await api.signUp();
const auth = { token: reader.token };

async function scrape(url = origin): Promise<Map<string, PromFamily>> {
  const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseExposition(await res.text());
}

const DURATION = 'music_http_request_duration_seconds';
/** Requests of one operation, method and status: the histogram's `_count`. */
const requestsOf = (families: Map<string, PromFamily>, labels: Record<string, string>) =>
  sampleSum(families, `${DURATION}_count`, labels);

describe('GET /metrics', () => {
  it('is a 404 without METRICS_TOKEN, like any unknown path', async () => {
    const res = await fetch(`${plain.server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('answers 401 without the token or with another one, and 405 to anything but GET and HEAD', async () => {
    for (const authorization of [undefined, `Bearer ${TOKEN}x`, `Basic ${TOKEN}`, TOKEN]) {
      const res = await fetch(`${origin}/metrics`, { headers: authorization ? { authorization } : {} });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
      expect(await res.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    }
    const post = await fetch(`${origin}/metrics`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    const head = await fetch(`${origin}/metrics`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(head.status).toBe(200);
  });

  it('counts requests by operation, method and status, on both transports', async () => {
    const before = await scrape();
    const listed = { operation: 'songs.list', method: 'GET', status: '200' };
    const count = requestsOf(before, listed);
    for (let i = 0; i < 3; i++) expect((await api.request('GET', '/songs?limit=1', auth)).status).toBe(200);
    const rpc = await fetch(`${origin}/trpc/songs.list?input=${encodeURIComponent('{"limit":1}')}`, {
      headers: { authorization: `Bearer ${reader.token}` },
    });
    expect(rpc.status).toBe(200);
    expect((await api.request('GET', '/songs/not-a-uuid', auth)).status).toBe(404);
    expect((await api.request('GET', '/no-such-route')).status).toBe(404);

    const after = await scrape();
    expect(after.get(DURATION)?.type).toBe('histogram');
    expect(requestsOf(after, listed)).toBe(count + 4);
    expect(requestsOf(after, { operation: 'songs.get', method: 'GET', status: '404' })).toBe(1);
    expect(requestsOf(after, { operation: 'unrouted', status: '404' })).toBe(1);
    // Cumulative buckets: every request is in +Inf, and none took less than 0 s.
    expect(sampleSum(after, `${DURATION}_bucket`, { ...listed, le: '+Inf' })).toBe(count + 4);
    expect(sampleSum(after, `${DURATION}_sum`, listed)).toBeGreaterThan(0);
    // Ids never become labels: one series per operation, method and status.
    const operations = new Set(after.get(DURATION)?.samples.map((s) => s.labels.operation));
    expect(operations.has('songs.list') && operations.has('unrouted')).toBe(true);
    for (const name of operations)
      expect(name).toMatch(/^(unrouted|service\.[a-z./]+|[a-zA-Z]+(\.[a-zA-Z]+)+)$/);
  });

  it("reports the database's pools", async () => {
    const families = await scrape();
    const pools = new Set(
      families.get('music_db_pool_max_connections')?.samples.map((s) => s.labels.pool ?? ''),
    );
    expect(pools).toEqual(
      api.database.kind === 'embedded' ? new Set(['embedded']) : new Set(['primary', 'primary-pipelined']),
    );
    for (const pool of pools) {
      expect(sampleSum(families, 'music_db_pool_max_connections', { pool })).toBeGreaterThan(0);
      const idle = sampleSum(families, 'music_db_pool_connections', { pool, state: 'idle' });
      const busy = sampleSum(families, 'music_db_pool_connections', { pool, state: 'busy' });
      expect(idle + busy).toBeLessThanOrEqual(sampleSum(families, 'music_db_pool_max_connections', { pool }));
      expect(sampleSum(families, 'music_db_pool_waiting_requests', { pool })).toBe(0);
    }
    // The usual Node.js process metrics come along.
    expect(sampleSum(families, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(families.has('nodejs_eventloop_lag_seconds')).toBe(true);
  });

  it('counts search cache hits and misses', async () => {
    const before = await scrape();
    const hits = sampleSum(before, 'music_search_cache_requests_total', { result: 'hit' });
    const misses = sampleSum(before, 'music_search_cache_requests_total', { result: 'miss' });
    const path = `/songs?search=metrics${Date.now()}&sort=title`;
    expect((await api.request('GET', path, auth)).status).toBe(200);
    expect((await api.request('GET', path, auth)).status).toBe(200);
    const after = await scrape();
    expect(sampleSum(after, 'music_search_cache_requests_total', { result: 'miss' })).toBe(misses + 1);
    expect(sampleSum(after, 'music_search_cache_requests_total', { result: 'hit' })).toBe(hits + 1);
  });

  it('counts throttle refusals by throttle', async () => {
    const user = await api.signUp();
    const attempt = () =>
      api.request('POST', '/auth/login', { body: { email: user.email, password: 'wrong-password' } });
    expect((await attempt()).status).toBe(401);
    expect((await attempt()).status).toBe(429);
    const families = await scrape();
    expect(sampleSum(families, 'music_throttle_refusals_total', { throttle: 'sign-in-email' })).toBe(1);
  });

  it('counts housekeeping runs', async () => {
    const deadline = Date.now() + 15_000;
    while (sampleSum(await scrape(), 'music_housekeeping_runs_total', { outcome: 'ran' }) < 1) {
      if (Date.now() > deadline) throw new Error('no housekeeping run counted in 15 s');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(sampleSum(await scrape(), 'music_housekeeping_runs_total', { outcome: 'failed' })).toBe(0);
  });
});

describe('the sample Grafana dashboard', () => {
  it('queries only series the API exposes', async () => {
    const file = path.resolve(import.meta.dirname, '../../../../docs/grafana/music-api.json');
    const dashboard = JSON.parse(readFileSync(file, 'utf8')) as { panels: { targets: { expr: string }[] }[] };
    const exprs = dashboard.panels.flatMap((panel) => panel.targets.map((target) => target.expr));
    const names = new Set(exprs.flatMap((expr) => expr.match(/\b(music|process|nodejs)_[a-z0-9_]+/g) ?? []));
    expect(names.size).toBeGreaterThan(8);
    const families = await scrape();
    // A series is there when it has samples, or (a replica's, on an API without replicas) when
    // its family is declared: Prometheus names a counter's family without `_total`.
    const exposed = new Set([
      ...[...families.values()].flatMap((family) => family.samples.map((sample) => sample.name)),
      ...[...families.keys()].flatMap((name) => [name, `${name}_total`]),
    ]);
    for (const name of names) expect(exposed, `${name} is not exposed`).toContain(name);
  });
});

describe('budget refusals', () => {
  it('are counted by kind of caller', async () => {
    const limited = await startTestApi({ METRICS_TOKEN: TOKEN, RATE_LIMIT_PER_MINUTE: 2 });
    try {
      const { token } = await limited.signUp();
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++)
        statuses.push((await limited.request('GET', '/songs?limit=1', { token })).status);
      expect(statuses).toEqual([200, 200, 429, 429]);
      // Scraping is not counted against anyone's budget: a third scrape is still a 200.
      await scrape(limited.server.url);
      await scrape(limited.server.url);
      const families = await scrape(limited.server.url);
      expect(sampleSum(families, 'music_budget_refusals_total', { caller: 'user' })).toBe(2);
      expect(sampleSum(families, 'music_budget_refusals_total', { caller: 'key' })).toBe(0);
      expect(requestsOf(families, { operation: 'songs.list', status: '429' })).toBe(2);
    } finally {
      await limited.close();
    }
  });
});
