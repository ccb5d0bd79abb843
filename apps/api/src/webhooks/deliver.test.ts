import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliver, KEPT_BODY_BYTES } from './deliver';

const SECRET = `whsec_${randomBytes(24).toString('base64')}`;
const LOCAL = { allowHttp: true, allowPrivate: true };

interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** A receiver on loopback whose paths answer as named; it records what reached it. */
const received: Received[] = [];
const routes: Record<string, (res: ServerResponse) => void> = {
  '/ok': (res) => res.end('thanks'),
  '/fails': (res) => {
    res.statusCode = 503;
    res.end('down for maintenance');
  },
  '/moved': (res) => {
    res.writeHead(302, { location: '/ok' });
    res.end();
  },
  '/slow': () => {
    // Never answers: the attempt's timeout ends it.
  },
  '/talkative': (res) => res.end('x'.repeat(100_000)),
};
const server = createServer((req: IncomingMessage, res) => {
  let body = '';
  req.on('data', (chunk) => {
    body += chunk;
  });
  req.on('end', () => {
    received.push({ path: req.url ?? '', headers: req.headers as Record<string, string>, body });
    routes[req.url ?? '']?.(res);
  });
});
let base: string;
beforeAll(async () => {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const attempt = (path: string, overrides: Partial<Parameters<typeof deliver>[0]> = {}) =>
  deliver({
    url: `${base}${path}`,
    secret: SECRET,
    messageId: 'msg_2Fq1',
    payload: JSON.stringify({ type: 'song.created', data: { id: 'x' } }),
    policy: LOCAL,
    timeoutMs: 2_000,
    ...overrides,
  });

describe('a webhook delivery attempt', () => {
  it('POSTs the payload signed as Standard Webhooks say, verified by their own library', async () => {
    received.length = 0;
    const result = await attempt('/ok');
    expect(result).toMatchObject({ status: 200, ok: true, body: 'thanks', error: null });
    const [got] = received;
    expect(got!.headers['webhook-id']).toBe('msg_2Fq1');
    expect(got!.headers['content-type']).toBe('application/json');
    expect(got!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(SECRET).verify(got!.body, got!.headers)).toEqual({
      type: 'song.created',
      data: { id: 'x' },
    });
    // Another secret does not verify it.
    expect(() =>
      new Webhook(`whsec_${randomBytes(24).toString('base64')}`).verify(got!.body, got!.headers),
    ).toThrow();
  });

  it('counts a non-2xx as a failure, keeps what the receiver said, and follows no redirect', async () => {
    received.length = 0;
    expect(await attempt('/fails')).toMatchObject({ status: 503, ok: false, body: 'down for maintenance' });
    expect(await attempt('/moved')).toMatchObject({ status: 302, ok: false });
    expect(received.map((r) => r.path)).toEqual(['/fails', '/moved']);
  });

  it('gives up on a receiver that does not answer in time', async () => {
    const result = await attempt('/slow', { timeoutMs: 300 });
    expect(result).toMatchObject({ status: null, ok: false, error: 'no answer within 300 ms' });
    expect(result.ms).toBeLessThan(2_000);
  });

  it(`keeps no more than ${KEPT_BODY_BYTES} bytes of an answer`, async () => {
    const result = await attempt('/talkative');
    expect(result.status).toBe(200);
    expect(result.body).toBe('x'.repeat(KEPT_BODY_BYTES));
  });

  it('never connects to an address the policy refuses, however the URL was checked before', async () => {
    received.length = 0;
    const result = await attempt('/ok', {
      url: `${base.replace('127.0.0.1', 'localhost')}/ok`,
      policy: { allowHttp: true, allowPrivate: false },
    });
    expect(result).toMatchObject({ status: null, ok: false });
    expect(result.error).toMatch(/^EREFUSED_ADDRESS: .*loopback or private/);
    // An address written in the URL is connected to without a lookup: refused all the same.
    const literal = await attempt('/ok', { policy: { allowHttp: true, allowPrivate: false } });
    expect(literal.error).toMatch(/^EREFUSED_ADDRESS: 127\.0\.0\.1 is a loopback or private/);
    expect(received).toEqual([]);
  });
});
