import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NextRequest } from 'next/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

/**
 * The console's file routes (/api/songs/export, /api/imports) against a stand-in for the API's
 * `/v1` that answers as each test says: what reaches it, and that both bodies stream through.
 */
type Handler = (req: IncomingMessage, res: ServerResponse) => void;
let server: Server;
let answer: Handler;
let calls: Array<{ method: string; path: string; headers: IncomingMessage['headers'] }> = [];
let exportRoute: typeof import('../app/api/songs/export/route');
let importsRoute: typeof import('../app/api/imports/route');
let fileProxy: typeof import('./file-proxy');

beforeAll(async () => {
  server = createServer((req, res) => {
    calls.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers });
    answer(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.env.API_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  exportRoute = await import('../app/api/songs/export/route');
  importsRoute = await import('../app/api/imports/route');
  fileProxy = await import('./file-proxy');
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
beforeEach(() => {
  calls = [];
});

function request(
  path: string,
  init: {
    method?: string;
    cookies?: string;
    headers?: Record<string, string>;
    body?: ReadableStream<Uint8Array>;
  } = {},
) {
  return new NextRequest(`http://console.test${path}`, {
    method: init.method ?? 'GET',
    headers: {
      host: 'console.test',
      ...(init.cookies ? { cookie: init.cookies } : {}),
      ...init.headers,
    },
    ...(init.body ? { body: init.body, duplex: 'half' } : {}),
  } as ConstructorParameters<typeof NextRequest>[1]);
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

/** A promise and its resolver. */
function signal() {
  let done!: () => void;
  const promise = new Promise<void>((resolve) => {
    done = resolve;
  });
  return { promise, done };
}

describe('GET /api/songs/export', () => {
  it('asks /v1/songs/export with the session token and streams the file back, named as the API names it', async () => {
    const more = signal();
    answer = (_req, res) => {
      res.writeHead(200, {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': 'attachment; filename="songs-2026-06-15.csv"',
        'set-cookie': 'api=1',
      });
      res.write('title,album\r\n');
      // The rest only once the console has passed the first piece on.
      void more.promise.then(() => res.end('Blue Hour,\r\n'));
    };
    const res = await exportRoute.GET(
      request('/api/songs/export?format=csv', { cookies: 'mc_access=access-1' }),
    );
    expect(calls).toEqual([expect.objectContaining({ method: 'GET', path: '/v1/songs/export?format=csv' })]);
    expect(calls[0]!.headers.authorization).toBe('Bearer access-1');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="songs-2026-06-15.csv"');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('set-cookie')).toBeNull();
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('title,album\r\n');
    more.done();
    let rest = '';
    for (let part = await reader.read(); !part.done; part = await reader.read()) {
      rest += new TextDecoder().decode(part.value);
    }
    expect(rest).toBe('Blue Hour,\r\n');
  });

  it('passes the API’s refusal on as it is', async () => {
    answer = (_req, res) => json(res, 400, { code: 'BAD_REQUEST', message: 'format: Invalid option' });
    const res = await exportRoute.GET(
      request('/api/songs/export?format=xml', { cookies: 'mc_access=access-1' }),
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ code: 'BAD_REQUEST', message: 'format: Invalid option' });
  });

  it('answers 401 with only the refresh cookie left, without asking the API: the browser refreshes', async () => {
    const res = await exportRoute.GET(request('/api/songs/export?format=csv', { cookies: 'mc_refresh=r-1' }));
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    expect(calls).toEqual([]);
  });

  it('says the service cannot be reached when it does not answer', async () => {
    answer = (req) => req.socket.destroy();
    const res = await exportRoute.GET(
      request('/api/songs/export?format=csv', { cookies: 'mc_access=access-1' }),
    );
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });
});

describe('POST /api/imports', () => {
  it('passes the file on as it arrives, with its type, and answers the API’s 202 and import', async () => {
    const firstArrived = signal();
    let received = '';
    answer = (req, res) => {
      req.on('data', (chunk: Buffer) => {
        received += chunk.toString();
        firstArrived.done();
      });
      req.on('end', () => json(res, 202, { id: 'i-1', status: 'queued', received }));
    };
    let sendRest!: () => void;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('title,duration\r\n'));
        sendRest = () => {
          controller.enqueue(new TextEncoder().encode('Blue Hour,200\r\n'));
          controller.close();
        };
      },
    });
    const answered = importsRoute.POST(
      request('/api/imports?dryRun=true', {
        method: 'POST',
        cookies: 'mc_access=access-1',
        headers: { origin: 'http://console.test', 'content-type': 'text/csv' },
        body,
      }),
    );
    // The API has the file's first piece while the rest is still to come: nothing waits for all of it.
    await firstArrived.promise;
    expect(received).toBe('title,duration\r\n');
    sendRest();
    const res = await answered;
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({
      id: 'i-1',
      status: 'queued',
      received: 'title,duration\r\nBlue Hour,200\r\n',
    });
    expect(calls[0]).toMatchObject({ method: 'POST', path: '/v1/imports?dryRun=true' });
    expect(calls[0]!.headers['content-type']).toBe('text/csv');
    expect(calls[0]!.headers.authorization).toBe('Bearer access-1');
  });

  it('passes the API’s refusals on: 403, 413', async () => {
    for (const [status, code] of [
      [403, 'FORBIDDEN'],
      [413, 'PAYLOAD_TOO_LARGE'],
    ] as const) {
      answer = (req, res) => {
        req.resume();
        req.on('end', () => json(res, status, { code, message: 'No' }));
      };
      const res = await importsRoute.POST(
        request('/api/imports?dryRun=false', {
          method: 'POST',
          cookies: 'mc_access=access-1',
          headers: { origin: 'http://console.test', 'content-type': 'application/x-ndjson' },
          body: new Blob(['{"title":"A","duration":1}\n']).stream(),
        }),
      );
      expect(res.status).toBe(status);
      expect(await res.json()).toEqual({ code, message: 'No' });
    }
  });

  it('refuses another site’s upload, and asks for a refresh with only the refresh cookie, before the API', async () => {
    const send = (origin: string, cookies: string) =>
      importsRoute.POST(
        request('/api/imports?dryRun=true', {
          method: 'POST',
          cookies,
          headers: { origin, 'content-type': 'text/csv' },
          body: new Blob(['title,duration\r\n']).stream(),
        }),
      );
    const crossSite = await send('https://evil.example', 'mc_access=access-1');
    expect(crossSite.status).toBe(403);
    const refresh = await send('http://console.test', 'mc_refresh=r-1');
    expect(refresh.status).toBe(401);
    expect(calls).toEqual([]);
  });

  it('refuses a file over the limit itself (413), by its declared length before the API, or as it passes', async () => {
    // Declared: the API is not asked (it would close the connection under the upload).
    const declared = await importsRoute.POST(
      request('/api/imports?dryRun=true', {
        method: 'POST',
        cookies: 'mc_access=access-1',
        headers: {
          origin: 'http://console.test',
          'content-type': 'text/csv',
          'content-length': String(100 * 1024 * 1024 + 1),
        },
        body: new Blob(['title,duration\r\n']).stream(),
      }),
    );
    expect(declared.status).toBe(413);
    expect(await declared.json()).toEqual({
      code: 'PAYLOAD_TOO_LARGE',
      message: 'An import is at most 100 MB',
    });
    expect(calls).toEqual([]);

    // Undeclared (chunked): counted on its way, and cut off past the limit.
    let received = 0;
    answer = (req, res) => {
      req.on('data', (chunk: Buffer) => {
        received += chunk.length;
      });
      req.on('end', () => json(res, 202, { id: 'i-2' }));
      req.on('error', () => res.destroy());
    };
    const tooMuch = await fileProxy.forwardFile(
      request('/api/imports?dryRun=true', { method: 'POST', cookies: 'mc_access=access-1' }),
      '/imports',
      { stream: new Blob(['0123456789', 'abcdef']).stream(), type: 'text/csv', length: null, limit: 12 },
    );
    expect(tooMuch.status).toBe(413);
    expect(received).toBeLessThanOrEqual(12);
  });
});
