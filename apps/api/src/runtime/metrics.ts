import { createHash, timingSafeEqual } from 'node:crypto';
import { type Observer, THROTTLES } from '@music/api-router';
import type { PoolUse, ReplicaStatus } from '@music/db';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/**
 * Request durations in seconds: from a cached song detail (~1 ms) to the statement timeout.
 * Chosen so the p50/p99 of every hot path falls between two bounds an order apart at most.
 */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** Who was over its request budget: an API key, a signed-in user, an anonymous address. */
export type BudgetCaller = 'key' | 'user' | 'address';

export interface MetricsOptions {
  /** METRICS_TOKEN, which a scraper sends as a bearer token. */
  token: string;
  /** The database's connection pools as they are now (read at each scrape). */
  pools: () => readonly PoolUse[];
  /** The read replicas as last checked (none without DATABASE_READ_URLS). */
  replicas: () => readonly ReplicaStatus[];
}

/**
 * What an instance counts for Prometheus, in a registry of its own (several servers in one
 * process, as in the tests, never mix their figures). Only made when METRICS_TOKEN is set: an
 * instance without it records nothing and serves no `/metrics`.
 *
 * Every series is per instance; Prometheus scrapes each instance (not the balancer) and sums.
 */
export interface Metrics {
  /** What `GET /metrics` asks of a scraper. */
  readonly token: string;
  /** One answered request; `operation` is the procedure's name (`songs.get`) or a service route's. */
  request(operation: string, method: string, status: number, seconds: number): void;
  /** A request refused for its caller's request budget (429). */
  budgetRefused(caller: BudgetCaller): void;
  /** A clean-up run this instance made (`ran`), or one that failed. */
  housekeeping(outcome: 'ran' | 'failed', removed: number): void;
  /** What the operations report: search cache use, throttle refusals. */
  readonly observer: Observer;
  /** The exposition, and its media type. */
  exposition(): Promise<{ contentType: string; body: string }>;
}

export function createMetrics(options: MetricsOptions): Metrics {
  const registry = new Registry();
  // Process CPU and memory, the event loop's delay, garbage collection: the usual Node.js set,
  // under their usual names so existing dashboards read them.
  collectDefaultMetrics({ register: registry });

  const requests = new Histogram({
    name: 'music_http_request_duration_seconds',
    help: 'Answered HTTP requests: time from the request to the last byte of its answer, by operation, method and status.',
    labelNames: ['operation', 'method', 'status'] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  // One labelled child per (operation, method, status) seen, kept here: looking it up by a
  // string is cheaper on the request path than prom-client hashing a labels object each time.
  const children = new Map<string, ReturnType<typeof requests.labels>>();

  const budget = new Counter({
    name: 'music_budget_refusals_total',
    help: 'Requests refused (429) because their caller spent its request budget, by kind of caller.',
    labelNames: ['caller'] as const,
    registers: [registry],
  });
  const throttles = new Counter({
    name: 'music_throttle_refusals_total',
    help: 'Attempts refused (429) by a throttle: failed sign-ins per email or address, sign-ups, password resets.',
    labelNames: ['throttle'] as const,
    registers: [registry],
  });
  const searchCache = new Counter({
    name: 'music_search_cache_requests_total',
    help: 'Song searches answered from the search cache (hit) or computed (miss).',
    labelNames: ['result'] as const,
    registers: [registry],
  });
  const housekeepingRuns = new Counter({
    name: 'music_housekeeping_runs_total',
    help: 'Clean-up runs this instance made (one instance runs each period), by outcome.',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const housekeepingRemoved = new Counter({
    name: 'music_housekeeping_removed_rows_total',
    help: 'Expired rows the clean-up runs of this instance removed.',
    registers: [registry],
  });
  // Every known label value from 0, so a rate() or a dashboard finds the series before the first event.
  for (const outcome of ['ran', 'failed']) housekeepingRuns.labels(outcome).inc(0);
  for (const caller of ['key', 'user', 'address']) budget.labels(caller).inc(0);
  for (const throttle of THROTTLES) throttles.labels(throttle).inc(0);
  for (const result of ['hit', 'miss']) searchCache.labels(result).inc(0);

  const poolMax = new Gauge({
    name: 'music_db_pool_max_connections',
    help: 'The most connections a pool may open.',
    labelNames: ['pool'] as const,
    registers: [],
  });
  const waiting = new Gauge({
    name: 'music_db_pool_waiting_requests',
    help: 'Work waiting for a connection of the pool (a lasting non-zero value: the pool is too small or the database slow).',
    labelNames: ['pool'] as const,
    registers: [],
  });
  // Registered first of the three, so its collect() (run at each scrape: the pools are asked,
  // nothing is kept up to date between scrapes) fills all three before they are written out.
  new Gauge({
    name: 'music_db_pool_connections',
    help: 'Open database connections by pool and state (busy: running a statement or holding a transaction).',
    labelNames: ['pool', 'state'] as const,
    registers: [registry],
    collect() {
      this.reset();
      poolMax.reset();
      waiting.reset();
      for (const use of options.pools()) {
        this.labels(use.pool, 'busy').set(use.open - use.idle);
        this.labels(use.pool, 'idle').set(use.idle);
        poolMax.labels(use.pool).set(use.max);
        waiting.labels(use.pool).set(use.waiting);
      }
    },
  });
  registry.registerMetric(poolMax);
  registry.registerMetric(waiting);

  const replicaLag = new Gauge({
    name: 'music_db_replica_lag_seconds',
    help: "At most how far behind the primary's writes a read replica is, as last checked (absent while it is down).",
    labelNames: ['replica'] as const,
    registers: [],
  });
  new Gauge({
    name: 'music_db_replica_up',
    help: 'Whether a read replica answered its last check as a standby (1) or is not read from (0).',
    labelNames: ['replica'] as const,
    registers: [registry],
    collect() {
      this.reset();
      replicaLag.reset();
      for (const replica of options.replicas()) {
        this.labels(replica.name).set(replica.up ? 1 : 0);
        if (replica.lagSeconds !== null) replicaLag.labels(replica.name).set(replica.lagSeconds);
      }
    },
  });
  registry.registerMetric(replicaLag);
  const routedReads = new Counter({
    name: 'music_db_routed_reads_total',
    help: 'Reads that may be a moment old (catalogue, playlists), by where they were served: primary or a replica.',
    labelNames: ['target'] as const,
    registers: [registry],
  });
  for (const target of ['primary', ...options.replicas().map((replica) => replica.name)]) {
    routedReads.labels(target).inc(0);
  }

  return {
    token: options.token,
    request(operation, method, status, seconds) {
      const key = `${operation} ${method} ${status}`;
      let child = children.get(key);
      if (!child) {
        child = requests.labels(operation, method, String(status));
        children.set(key, child);
      }
      child.observe(seconds);
    },
    budgetRefused: (caller) => budget.labels(caller).inc(),
    housekeeping(outcome, removed) {
      housekeepingRuns.labels(outcome).inc();
      if (removed > 0) housekeepingRemoved.inc(removed);
    },
    observer: {
      searchCache: (hit) => searchCache.labels(hit ? 'hit' : 'miss').inc(),
      throttled: (throttle) => throttles.labels(throttle).inc(),
      routedRead: (target) => routedReads.labels(target).inc(),
    },
    async exposition() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}

/**
 * Whether an Authorization header carries the metrics token, compared in constant time (over
 * digests, so the comparison does not reveal the token's length either).
 */
export function carriesToken(authorization: string | undefined, token: string): boolean {
  const match = /^Bearer[ \t]+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match) return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(match[1]!), digest(token));
}
