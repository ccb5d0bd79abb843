import { connect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { Req, Sample } from './measure';

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
export class LeanConnection {
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
export class Tally {
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
export function serialise(r: Req, host: string): Buffer {
  const body = r.body === undefined ? undefined : Buffer.from(r.body);
  const lines = [`${r.method ?? 'GET'} ${r.path} HTTP/1.1`, `host: ${host}`];
  for (const [k, v] of Object.entries(r.headers ?? {})) lines.push(`${k}: ${v}`);
  if (body) lines.push(`content-length: ${body.length}`);
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
  return body ? Buffer.concat([head, body]) : head;
}
