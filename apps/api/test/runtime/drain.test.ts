import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { Worker } from 'node:worker_threads';
import { createTestDatabase } from '@music/db/testing';
import { until } from '@music/fleet/components';
import { afterAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../src/server';
import { within } from '../hardening/pg-faults';
import { testEnv, tryConnect, uniqueEmail } from '../support/harness';

/**
 * The drain with SHUTDOWN_DELAY_SECONDS=0, seen from raw sockets: what a connection the instance
 * had accepted receives, whether it still waited in the listen queue, or was taken but its request
 * not read, when the drain began.
 */

const database = await createTestDatabase();
afterAll(() => database.close());

const LIVE = 'GET /v1/health/live HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';
// Far beyond anything a test here waits for: a close before it is the drain's doing.
const GRACE_MS = 20_000;

interface Started {
  api: RunningServer;
  port: number;
  /** Connections the server has accepted so far ('connection' events). */
  accepted(): number;
  /** Requests whose headers the server has read so far ('request' events). */
  requests(): number;
}

async function start(): Promise<Started> {
  const api = await startServer(testEnv(), { database });
  let accepted = 0;
  let requests = 0;
  api.server.on('connection', () => accepted++);
  api.server.on('request', () => requests++);
  return { api, port: Number(new URL(api.url).port), accepted: () => accepted, requests: () => requests };
}

interface RawClient {
  socket: Socket;
  /** Everything the server sent so far. */
  received(): string;
  /** How the connection ended: `closed`, or the error code (ECONNRESET, EPIPE). */
  ended: Promise<string>;
}

async function connectRaw(port: number): Promise<RawClient> {
  const socket = connect({ host: '127.0.0.1', port });
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    text += chunk;
  });
  const ended = new Promise<string>((resolve) => {
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    socket.once('close', () => resolve('closed'));
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return { socket, received: () => text, ended };
}

const waitFor = (probe: () => boolean, what: string) =>
  until(async () => (probe() ? true : undefined), 10_000, what);

/** The status line and the Connection header of the answer, or how the connection ended without one. */
function outcome(received: string, ended: string): string {
  const status = /^HTTP\/1\.1 (\d{3}) /.exec(received)?.[1];
  if (!status) return `no answer (${ended})`;
  const head = received.slice(0, received.indexOf('\r\n\r\n')).toLowerCase();
  return `${status}, connection: ${/\r\nconnection: ([^\r]*)/.exec(head)?.[1] ?? '-'}`;
}

function tally(outcomes: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of outcomes) counts[item] = (counts[item] ?? 0) + 1;
  return counts;
}

/**
 * Clients in a thread of their own: they connect and send their request while this thread (the
 * server's) is blocked, so every connection is established but still in the kernel's listen queue.
 */
const QUEUED_CLIENTS = `
const { parentPort, workerData } = require('node:worker_threads');
const net = require('node:net');
const { port, count, request, flag } = workerData;
let connected = 0;
const ended = [];
for (let i = 0; i < count; i++) {
  const socket = net.connect({ host: '127.0.0.1', port });
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk) => { text += chunk; });
  socket.once('connect', () => {
    socket.write(request);
    if (++connected === count) { Atomics.store(flag, 0, 1); Atomics.notify(flag, 0); }
  });
  ended.push(new Promise((resolve) => {
    socket.once('error', (error) => resolve({ text, ended: error.code || error.message }));
    socket.once('close', () => resolve({ text, ended: 'closed' }));
  }));
}
Promise.all(ended).then((results) => parentPort.postMessage(results));
`;

describe('draining without a delay', () => {
  it('answers connections still in the listen queue when the drain begins', async () => {
    const { api, port, accepted } = await start();
    const flag = new Int32Array(new SharedArrayBuffer(4));
    const worker = new Worker(QUEUED_CLIENTS, {
      eval: true,
      workerData: { port, count: 40, request: LIVE, flag },
    });
    try {
      const results = once(worker, 'message') as Promise<[Array<{ text: string; ended: string }>]>;
      // Blocks this thread, the server's: it cannot take a connection before close() begins.
      const woke = Atomics.wait(flag, 0, 0, 20_000);
      const queued = accepted();
      const started = Date.now();
      const closed = api.close({ delayMs: 0, graceMs: GRACE_MS });
      expect(woke, 'the 40 clients to connect').not.toBe('timed-out');
      expect(queued).toBe(0);

      const [answers] = await within(results, 15_000, 'the 40 connections to end');
      expect(tally(answers.map((answer) => outcome(answer.text, answer.ended)))).toEqual({
        '200, connection: close': 40,
      });
      await within(closed, 15_000, 'close() to resolve');
      // Resolved as the last answer went out, not when the grace period cut everything off.
      expect(Date.now() - started).toBeLessThan(GRACE_MS - 5_000);
      expect(await tryConnect(port)).toBe('ECONNREFUSED');
    } finally {
      await worker.terminate();
      await api.close({ graceMs: 1_000 });
    }
  });

  it('answers connections it had taken whose request it had not read yet', async () => {
    const { api, port, accepted } = await start();
    const clients: RawClient[] = [];
    try {
      for (let i = 0; i < 40; i++) clients.push(await connectRaw(port));
      await waitFor(() => accepted() === clients.length, 'the server to accept all 40 connections');
      // Half the requests are already on their way when the drain begins, half are sent just
      // after: the server has read none of them.
      for (const client of clients.slice(0, 20)) client.socket.write(LIVE);
      const started = Date.now();
      const closed = api.close({ delayMs: 0, graceMs: GRACE_MS });
      for (const client of clients.slice(20)) client.socket.write(LIVE);

      const endings = await within(
        Promise.all(clients.map((client) => client.ended)),
        15_000,
        'the 40 connections to end',
      );
      const outcomes = clients.map((client, i) => outcome(client.received(), endings[i]!));
      expect(tally(outcomes)).toEqual({ '200, connection: close': 40 });
      await within(closed, 15_000, 'close() to resolve');
      // Resolved as the last answer went out, not when the grace period cut everything off.
      expect(Date.now() - started).toBeLessThan(GRACE_MS - 5_000);
      expect(await tryConnect(port)).toBe('ECONNREFUSED');
    } finally {
      for (const client of clients) client.socket.destroy();
      await api.close({ graceMs: 1_000 });
    }
  });

  it('closes a keep-alive connection idle after an answer at once, and finishes a request in flight', async () => {
    const { api, port, requests } = await start();
    // Far longer than the test waits: the idle connection is closed by the drain, not by this.
    api.server.keepAliveTimeout = 60_000;
    const clients: RawClient[] = [];
    try {
      const idle = await connectRaw(port);
      clients.push(idle);
      idle.socket.write(LIVE);
      await waitFor(() => idle.received().endsWith('{"status":"ok"}'), 'the answer on the idle connection');
      expect(outcome(idle.received(), '')).toBe('200, connection: keep-alive');

      // In flight: the server has read the headers, half the body is still to come.
      const body = JSON.stringify({
        username: 'Draining',
        email: uniqueEmail('drain'),
        password: `pw-${randomBytes(8).toString('hex')}`,
      });
      const slow = await connectRaw(port);
      clients.push(slow);
      slow.socket.write(
        'POST /v1/users HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
          `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`,
      );
      await waitFor(() => requests() === 2, 'the server to read the slow request');

      const closed = api.close({ delayMs: 0, graceMs: GRACE_MS });
      expect(await within(idle.ended, 5_000, 'the idle keep-alive connection to be closed')).toBe('closed');
      expect(await tryConnect(port)).toBe('ECONNREFUSED');
      expect(slow.received()).toBe('');

      slow.socket.write(body.slice(10));
      expect(await within(slow.ended, 10_000, 'the slow request to be answered')).toBe('closed');
      expect(outcome(slow.received(), '')).toBe('201, connection: close');
      await within(closed, 10_000, 'close() to resolve');
    } finally {
      for (const client of clients) client.socket.destroy();
      await api.close({ graceMs: 1_000 });
    }
  });

  it('closes a connection that never sends a request once the grace period is over', async () => {
    const { api, port, accepted } = await start();
    const silent = await connectRaw(port);
    try {
      await waitFor(() => accepted() === 1, 'the server to accept the connection');
      await within(api.close({ delayMs: 0, graceMs: 1_500 }), 10_000, 'close() to resolve');
      expect(await within(silent.ended, 1_000, 'the silent connection to be closed')).toBe('closed');
      expect(silent.received()).toBe('');
    } finally {
      silent.socket.destroy();
    }
  });
});
