// The three load generators: autocannon's closed loop, and an open and a closed loop on the lean client.
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { LeanConnection, serialise, Tally } from './lean-client';
import type { Req, Sample } from './measure';
import { type Probe, watch } from './proc';

/** One HTTP request of a load run. */

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

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

/** Medians of every figure over the rounds; errors are summed, peak RSS is the maximum. */
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
