// One case of the scale bench, measured: the closed loop's figures, and what the requests cost the
// database in buffers (pg_stat_database's blks_hit and blks_read, on the primary and on the replica)
// and where the API routed its reads (its /metrics).
import type pg from 'pg';
import { closedLoop } from './load';
import type { Req } from './measure';
import type { Probe } from './proc';
import type { ScaleRow } from './scale-report';

/** The two servers, a connection to the bench database on each. */
export interface Servers {
  primary: pg.Client;
  replica: pg.Client;
  dbName: string;
}

/** What one API instance is, for the measurements. */
export interface ApiUnderTest {
  base: string;
  metricsToken: string;
  probe: Probe;
}

interface Counters {
  primary: { hit: number; read: number };
  replica: { hit: number; read: number };
  /** music_db_routed_reads_total by target (`primary`, `replica-1`). */
  routed: Record<string, number>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function blocks(client: pg.Client, dbName: string) {
  const { rows } = await client.query<{ hit: string; read: string }>(
    'select blks_hit as hit, blks_read as read from pg_stat_database where datname = $1',
    [dbName],
  );
  return { hit: Number(rows[0]?.hit ?? 0), read: Number(rows[0]?.read ?? 0) };
}

/** The API's `/metrics` counters of routed reads. */
export async function routedReads(api: ApiUnderTest): Promise<Record<string, number>> {
  const res = await fetch(`${api.base}/metrics`, {
    headers: { authorization: `Bearer ${api.metricsToken}` },
  });
  if (res.status !== 200) throw new Error(`GET /metrics: ${res.status}`);
  return metricValues(await res.text(), 'music_db_routed_reads_total', 'target');
}

/** The values of a metric by one of its labels, from a Prometheus exposition. */
export function metricValues(text: string, metric: string, label: string): Record<string, number> {
  const values: Record<string, number> = {};
  const line = new RegExp(`^${metric}\\{[^}]*${label}="([^"]+)"[^}]*\\}\\s+(\\S+)`, 'gm');
  for (const match of text.matchAll(line)) values[match[1]!] = Number(match[2]);
  return values;
}

async function counters(servers: Servers, api: ApiUnderTest): Promise<Counters> {
  return {
    primary: await blocks(servers.primary, servers.dbName),
    replica: await blocks(servers.replica, servers.dbName),
    routed: await routedReads(api),
  };
}

/** Until neither server runs a statement of the API's (at most 15 s): a run's tail is not the next one's. */
export async function settle(servers: Servers): Promise<void> {
  const until = Date.now() + 15_000;
  for (const client of [servers.primary, servers.replica]) {
    while (Date.now() < until) {
      const { rows } = await client.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity
         where datname = $1 and state = 'active' and pid <> pg_backend_pid() and application_name = 'music-api'`,
        [servers.dbName],
      );
      if (rows[0]!.n === 0) break;
      await sleep(50);
    }
  }
}

/**
 * Settled, then quiet for `statsWaitMs`: a backend sends its buffer counts to pg_stat_database when
 * it goes idle, but at most once a second; one that did less than a second before its last request
 * holds the rest for up to 10 s (PGSTAT_IDLE_INTERVAL). Read before that, the counts would miss the
 * tail of the run, and the next run would be charged for it.
 */
export async function quiesce(servers: Servers, statsWaitMs: number): Promise<void> {
  await settle(servers);
  await sleep(statsWaitMs);
}

/** The database backends serving the API, on both servers (their CPU counts as the database's). */
export function backendPids(servers: Servers) {
  return async () => {
    const pids: number[] = [];
    for (const client of [servers.primary, servers.replica]) {
      const { rows } = await client.query<{ pid: number }>(
        `select pid from pg_stat_activity where datname = $1 and application_name = 'music-api'`,
        [servers.dbName],
      );
      pids.push(...rows.map((r) => r.pid));
    }
    return pids;
  };
}

const per = (n: number, requests: number) => Math.round((n / Math.max(1, requests)) * 10) / 10;

/**
 * One measured run of a case, on a quiet database whose counts are complete (`quiesce` before):
 * the closed loop, then quiet again, and the counters' differences per request.
 */
export async function measureCase(
  servers: Servers,
  api: ApiUnderTest,
  requests: (k: number) => Req[],
  options: { connections: number; seconds: number; statsWaitMs: number },
): Promise<Omit<ScaleRow, 'songs' | 'target' | 'case'>> {
  const before = await counters(servers, api);
  const sample = await closedLoop(api.probe, api.base, requests, options);
  await quiesce(servers, options.statsWaitMs);
  const after = await counters(servers, api);
  const answered = Math.round(sample.rps * options.seconds);
  const delta = (side: 'primary' | 'replica', kind: 'hit' | 'read') =>
    per(after[side][kind] - before[side][kind], answered);
  const routed: Record<string, number> = {};
  for (const [target, n] of Object.entries(after.routed)) routed[target] = n - (before.routed[target] ?? 0);
  return {
    requests: answered,
    rps: sample.rps,
    p50: sample.p50,
    p99: sample.p99,
    errors: sample.errors,
    non2xx: sample.non2xx,
    cpuUsPerReq: sample.cpuUsPerReq,
    dbCpuUsPerReq: sample.dbCpuUsPerReq,
    buffers: {
      primary: { hit: delta('primary', 'hit'), read: delta('primary', 'read') },
      replica: { hit: delta('replica', 'hit'), read: delta('replica', 'read') },
    },
    routed,
  };
}
