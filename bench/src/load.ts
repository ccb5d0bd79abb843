import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
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
export const CLK_TCK = 100;

/** CPU ticks of a process, or of one of its threads (`tid`; the main thread's is the pid). */
export function cpuTicks(pid: number, tid?: number): number {
  // Fields after the command name: state is [0], utime [11], stime [12] (man 5 proc).
  const path = tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`;
  const fields = readFileSync(path, 'utf8').split(') ')[1]!.split(' ');
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
 * A minimal HTTP/1.1 keep-alive client for the open-loop generator: requests are serialised once,
 * responses are read by their Content-Length. `node:http`'s client costs about 1 ms of CPU per
 * request on these machines, which on 2 cores is CPU taken from the server being measured; this
 * one costs a small fraction of that. It only understands what our two servers send (a status line,
 * headers with Content-Length, or no body for 204/304) and fails loudly on anything else.
 */
class LeanConnection {
  private readonly socket: Socket;
  private buffer: Buffer = Buffer.alloc(0);
  private pending: ((status: number | Error) => void) | undefined;
  busy = false;
  dead = false;

  constructor(host: string, port: number) {
    this.socket = connect({ host, port, noDelay: true });
    this.socket.on('data', (chunk: Buffer) => {
      this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
      this.parse();
    });
    const fail = (error: Error) => {
      this.dead = true;
      this.finish(error);
    };
    this.socket.on('error', fail);
    this.socket.on('close', () => fail(new Error('connection closed')));
    this.socket.on('timeout', () => this.socket.destroy(new Error('timeout')));
  }

  send(bytes: Buffer, done: (status: number | Error) => void, timeoutMs: number) {
    this.busy = true;
    this.pending = done;
    this.socket.setTimeout(timeoutMs);
    this.socket.write(bytes);
  }

  close() {
    this.dead = true;
    this.socket.destroy();
  }

  private finish(result: number | Error) {
    const done = this.pending;
    this.pending = undefined;
    this.busy = false;
    this.socket.setTimeout(0);
    done?.(result);
  }

  private parse() {
    const headerEnd = this.buffer.indexOf('\r\n\r\n');
    if (headerEnd < 0) return;
    const head = this.buffer.toString('latin1', 0, headerEnd);
    const status = Number(head.slice(9, 12));
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    if (!length && status !== 204 && status !== 304) {
      this.socket.destroy(new Error(`no Content-Length in a ${status} response`));
      return;
    }
    const total = headerEnd + 4 + (length ? Number(length[1]) : 0);
    if (this.buffer.length < total) return;
    this.buffer = this.buffer.subarray(total);
    this.finish(status);
  }
}

/** A lean run's answers as they come, and its figures at the end (CPU as `watch` measured it). */
class Tally {
  private readonly latencies: number[] = [];
  private errors = 0;
  private non2xx = 0;

  /** One answer to a request that was due (or sent) at `since`: a status, or the error instead. */
  add(status: number | Error, since: number): void {
    if (status instanceof Error) {
      this.errors++;
      return;
    }
    this.latencies.push(performance.now() - since);
    if (status >= 300) this.non2xx++;
  }

  sample(seconds: number, watched: { cpuSeconds: number; dbCpuSeconds: number; peakRssMb: number }): Sample {
    const latencies = this.latencies.sort((a, b) => a - b);
    const round = (ms: number) => Math.round(ms * 10) / 10;
    const answered = Math.max(1, latencies.length);
    return {
      rps: Math.round(latencies.length / seconds),
      p50: round(percentile(latencies, 50)),
      p99: round(percentile(latencies, 99)),
      cpuUsPerReq: Math.round((watched.cpuSeconds * 1e6) / answered),
      dbCpuUsPerReq: Math.round((watched.dbCpuSeconds * 1e6) / answered),
      peakRssMb: watched.peakRssMb,
      errors: this.errors,
      non2xx: this.non2xx,
    };
  }
}

/** `r` as the bytes of one HTTP/1.1 request to `host`. */
function serialise(r: Req, host: string): Buffer {
  const body = r.body === undefined ? undefined : Buffer.from(r.body);
  const lines = [`${r.method ?? 'GET'} ${r.path} HTTP/1.1`, `host: ${host}`];
  for (const [k, v] of Object.entries(r.headers ?? {})) lines.push(`${k}: ${v}`);
  if (body) lines.push(`content-length: ${body.length}`);
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
  return body ? Buffer.concat([head, body]) : head;
}

/**
 * Open-loop load at a fixed offered rate, evenly spaced (not autocannon's `overallRate`, which
 * sends each second's quota in a burst at the start of the second). Latency is measured from the
 * moment a request was due, so a stalled server cannot hide queueing (no coordinated omission):
 * a request due while every connection is busy waits in line, and that wait counts.
 */
export async function openLoop(
  probe: Probe,
  base: string,
  requests: Req[],
  options: { rate: number; seconds: number; maxConnections?: number },
): Promise<Sample> {
  const url = new URL(base);
  const port = Number(url.port);
  const maxConnections = options.maxConnections ?? 50;
  const payloads = requests.map((r) => serialise(r, url.host));
  const connections: LeanConnection[] = [];
  const total = Math.round(options.rate * options.seconds);
  const tally = new Tally();
  const watched = await watch(
    probe,
    () =>
      new Promise<void>((resolve) => {
        let sent = 0;
        let done = 0;
        const waiting: Array<{ intended: number; payload: Buffer }> = [];
        const start = performance.now();
        const dispatch = () => {
          while (waiting.length > 0) {
            let conn = connections.find((c) => !c.busy && !c.dead);
            if (!conn) {
              if (connections.filter((c) => !c.dead).length >= maxConnections) return;
              conn = new LeanConnection(url.hostname, port);
              connections.push(conn);
            }
            const { intended, payload } = waiting.shift()!;
            conn.send(
              payload,
              (status) => {
                tally.add(status, intended);
                if (++done === total) resolve();
                else dispatch();
              },
              10_000,
            );
          }
        };
        const tick = () => {
          const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * options.rate) + 1);
          while (sent < due) {
            waiting.push({
              intended: start + (sent * 1000) / options.rate,
              payload: payloads[sent % payloads.length]!,
            });
            sent++;
          }
          dispatch();
          // Sleep until the next request is due, not a fixed 1 ms: a generator polling 1,000 times
          // a second takes CPU (and caches) from the server it measures, which on 2 cores shows.
          if (sent < total) {
            const nextDue = start + (sent * 1000) / options.rate;
            setTimeout(tick, Math.max(0, nextDue - performance.now()));
          }
        };
        tick();
      }),
  );
  for (const c of connections) c.close();
  return tally.sample(options.seconds, watched);
}

/**
 * Closed-loop load on the lean client: `connections` connections, each sending its next request
 * (cycling through `requests`) as soon as the last is answered. For the login case, whose
 * baseline (argon2id in this process) runs with no load generator at all: there every cycle the
 * generator spends is charged to the API alone, and autocannon spends about ten times this.
 */
export async function leanClosedLoop(
  probe: Probe,
  base: string,
  requests: Req[],
  options: { connections: number; seconds: number },
): Promise<Sample> {
  const url = new URL(base);
  const payloads = requests.map((r) => serialise(r, url.host));
  const tally = new Tally();
  const connections: LeanConnection[] = [];
  const watched = await watch(probe, async () => {
    const until = performance.now() + options.seconds * 1000;
    await Promise.all(
      Array.from({ length: options.connections }, async (_, k) => {
        let conn = new LeanConnection(url.hostname, Number(url.port));
        connections.push(conn);
        for (let n = k; performance.now() < until; n++) {
          if (conn.dead) {
            conn = new LeanConnection(url.hostname, Number(url.port));
            connections.push(conn);
          }
          const sent = performance.now();
          const status = await new Promise<number | Error>((resolve) =>
            conn.send(payloads[n % payloads.length]!, resolve, 10_000),
          );
          tally.add(status, sent);
        }
      }),
    );
  });
  for (const c of connections) c.close();
  return tally.sample(options.seconds, watched);
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

/** Busy CPU ticks of the whole machine so far (user, nice, system, irq, softirq of /proc/stat). */
export function machineBusyTicks(): number {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.split(/\s+/).slice(1).map(Number);
  return fields[0]! + fields[1]! + fields[2]! + fields[5]! + fields[6]!;
}
