import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';

/** One HTTP request of a load run. */
export interface Req {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface Sample {
  rps: number;
  p50: number;
  p99: number;
  /** User + system CPU of the server process over the run, per completed request. */
  cpuUsPerReq: number;
  /** CPU of the database's backend processes serving the run, per completed request. */
  dbCpuUsPerReq: number;
  /** Highest resident set size of the server process seen during the run (sampled every 100 ms). */
  peakRssMb: number;
  errors: number;
  non2xx: number;
}

/** Kernel clock ticks per second (`getconf CLK_TCK`; 100 on every Linux we run on). */
const CLK_TCK = 100;

export function cpuTicks(pid: number): number {
  // Fields after the command name: state is [0], utime [11], stime [12] (man 5 proc).
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

export function memory(pid: number): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rssMb: Math.round(kb('VmRSS') / 1024), peakMb: Math.round(kb('VmHWM') / 1024) };
}

/** What a load run observes: the server process, and the database backends serving it. */
export interface Probe {
  pid: number;
  /** Pids of the PostgreSQL backends connected to the benchmark database. */
  dbPids(): Promise<number[]>;
}

function ticksOf(pids: number[]): Map<number, number> {
  const ticks = new Map<number, number>();
  for (const pid of pids) {
    try {
      ticks.set(pid, cpuTicks(pid));
    } catch {
      // The backend ended in the meantime.
    }
  }
  return ticks;
}

/** CPU of the server and of the database backends, and the server's peak RSS, while `work` runs. */
async function watch<T>(
  probe: Probe,
  work: () => Promise<T>,
): Promise<{ result: T; cpuSeconds: number; dbCpuSeconds: number; peakRssMb: number }> {
  const { pid } = probe;
  let peakRssMb = memory(pid).rssMb;
  const sampler = setInterval(() => {
    peakRssMb = Math.max(peakRssMb, memory(pid).rssMb);
  }, 100);
  const dbBefore = ticksOf(await probe.dbPids());
  const before = cpuTicks(pid);
  try {
    const result = await work();
    const cpuSeconds = (cpuTicks(pid) - before) / CLK_TCK;
    // Backends that connected during the run count from zero.
    let dbTicks = 0;
    for (const [backend, ticks] of ticksOf(await probe.dbPids()))
      dbTicks += ticks - (dbBefore.get(backend) ?? 0);
    return { result, cpuSeconds, dbCpuSeconds: dbTicks / CLK_TCK, peakRssMb };
  } finally {
    clearInterval(sampler);
  }
}

/**
 * Closed-loop load (autocannon): `connections` connections each send their next request as soon
 * as the previous one is answered. `perConnection(k)` gives connection k its own request list
 * (pre-built once, cycled), so connections can work on disjoint data and the load generator
 * spends no time building requests.
 */
export async function closedLoop(
  probe: Probe,
  base: string,
  perConnection: (k: number) => Req[],
  options: { connections: number; seconds: number },
): Promise<Sample> {
  let next = 0;
  const toAutocannon = (r: Req) => ({
    method: r.method ?? 'GET',
    path: r.path,
    headers: r.headers ?? {},
    ...(r.body !== undefined ? { body: r.body } : {}),
  });
  const { result, cpuSeconds, dbCpuSeconds, peakRssMb } = await watch(probe, () =>
    autocannon({
      url: base,
      connections: options.connections,
      duration: options.seconds,
      requests: perConnection(0).map(toAutocannon),
      setupClient: (client: { setRequests(requests: unknown[]): void }) => {
        client.setRequests(perConnection(next++).map(toAutocannon));
      },
    } as unknown as autocannon.Options),
  );
  const total = result.requests.total || 1;
  return {
    rps: Math.round(total / options.seconds),
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuUsPerReq: Math.round((cpuSeconds * 1e6) / total),
    dbCpuUsPerReq: Math.round((dbCpuSeconds * 1e6) / total),
    peakRssMb,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * Open-loop load at a fixed offered rate, evenly spaced (not autocannon's `overallRate`, which
 * sends each second's quota in a burst at the start of the second). Latency is measured from the
 * moment a request was due, so a stalled server cannot hide queueing (no coordinated omission).
 */
export async function openLoop(
  probe: Probe,
  base: string,
  requests: Req[],
  options: { rate: number; seconds: number; maxConnections?: number },
): Promise<Sample> {
  const url = new URL(base);
  const agent = new Agent({ keepAlive: true, maxSockets: options.maxConnections ?? 50 });
  const total = Math.round(options.rate * options.seconds);
  const latencies: number[] = [];
  let errors = 0;
  let non2xx = 0;
  const { cpuSeconds, dbCpuSeconds, peakRssMb } = await watch(
    probe,
    () =>
      new Promise<void>((resolve) => {
        let sent = 0;
        let done = 0;
        const finish = () => {
          if (++done === total) resolve();
        };
        const start = performance.now();
        const tick = () => {
          const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * options.rate) + 1);
          while (sent < due) {
            const intended = start + (sent * 1000) / options.rate;
            const r = requests[sent % requests.length]!;
            sent++;
            const req = request(
              {
                agent,
                host: url.hostname,
                port: url.port,
                method: r.method ?? 'GET',
                path: r.path,
                headers: r.headers,
              },
              (res) => {
                res.resume();
                res.on('end', () => {
                  latencies.push(performance.now() - intended);
                  if ((res.statusCode ?? 0) >= 300) non2xx++;
                  finish();
                });
              },
            );
            req.setTimeout(10_000, () => req.destroy(new Error('timeout')));
            req.on('error', () => {
              errors++;
              finish();
            });
            req.end(r.body);
          }
          if (sent < total) setTimeout(tick, 1);
        };
        tick();
      }),
  );
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return {
    rps: Math.round(latencies.length / options.seconds),
    p50: round(percentile(latencies, 50)),
    p99: round(percentile(latencies, 99)),
    cpuUsPerReq: Math.round((cpuSeconds * 1e6) / Math.max(1, latencies.length)),
    dbCpuUsPerReq: Math.round((dbCpuSeconds * 1e6) / Math.max(1, latencies.length)),
    peakRssMb,
    errors,
    non2xx,
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Medians of every figure over the rounds; errors are summed, peak RSS is the maximum. */
const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

export function summarise(samples: Sample[]): Sample {
  return {
    rps: Math.round(median(samples.map((s) => s.rps))),
    p50: round(median(samples.map((s) => s.p50)), 1),
    p99: round(median(samples.map((s) => s.p99)), 1),
    cpuUsPerReq: Math.round(median(samples.map((s) => s.cpuUsPerReq))),
    dbCpuUsPerReq: Math.round(median(samples.map((s) => s.dbCpuUsPerReq))),
    peakRssMb: Math.max(...samples.map((s) => s.peakRssMb)),
    errors: samples.reduce((a, s) => a + s.errors, 0),
    non2xx: samples.reduce((a, s) => a + s.non2xx, 0),
  };
}
