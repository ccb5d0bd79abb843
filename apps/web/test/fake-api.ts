import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ErrorCode } from '@music/api-router/schemas';
import { NextRequest } from 'next/server';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { answerRecords, resetRecords } from './fake-records';
import { answerWebhooks, resetWebhooks } from './fake-webhooks';

// A real HTTP server standing in for the API, recording what reaches it. Its `/trpc` answers
// are the real API's (apps/api/src/app.ts, the error formatter in packages/api-router/src/trpc.ts):
// `{result: {data}}`, or `{error: {message, code, data: {code, httpStatus, path, ...}}}` with
// Retry-After beside `data.retryAfter`; a POST without a content type is a 400.
let server: Server;
/** What the suites read: the calls the fake API saw, and the console's modules loaded against it. */
export const fake = {
  calls: [] as Array<{ path: string; authorization?: string; forwardedFor?: string; body: string }>,
  session: undefined as unknown as typeof import('../src/server/session'),
  trpcRoute: undefined as unknown as typeof import('../src/app/api/trpc/[trpc]/route'),
  refreshRoute: undefined as unknown as typeof import('../src/app/api/session/refresh/route'),
  sessionRoute: undefined as unknown as typeof import('../src/app/api/session/route'),
  signUpRoute: undefined as unknown as typeof import('../src/app/api/session/sign-up/route'),
};

// The JSON-RPC numbers tRPC sends beside each contract code (the console reads `data`, not these).
const RPC_CODES = {
  BAD_REQUEST: -32600,
  UNAUTHORIZED: -32001,
  FORBIDDEN: -32003,
  NOT_FOUND: -32004,
  CONFLICT: -32009,
  VALIDATION_FAILED: -32022,
  TOO_MANY_REQUESTS: -32029,
  SERVICE_UNAVAILABLE: -32603,
} satisfies Partial<Record<ErrorCode, number>>;

export const TOKENS = { tokenType: 'Bearer', expiresIn: 600 };
export const USER = { id: 'u-1', username: 'admin', email: 'admin@console.test', role: 'admin' };

/** Starts the fake API before a suite's tests and loads the console's modules against it. */
export function startFakeApi() {
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        const path = req.url ?? '';
        const { authorization, 'x-forwarded-for': forwardedFor } = req.headers;
        fake.calls.push({
          path,
          authorization,
          ...(forwardedFor ? { forwardedFor: String(forwardedFor) } : {}),
          body,
        });
        const json = (status: number, value: unknown, headers: Record<string, string> = {}) => {
          res.writeHead(status, { 'content-type': 'application/json', ...headers });
          res.end(JSON.stringify(value));
        };
        const data = (value: unknown) => json(200, { result: value === undefined ? {} : { data: value } });
        const fail = (status: number, code: keyof typeof RPC_CODES, extra: Record<string, unknown> = {}) => {
          const retry: Record<string, string> =
            extra.retryAfter === undefined ? {} : { 'retry-after': String(extra.retryAfter) };
          const error = { message: `${code} said the API`, code: RPC_CODES[code] };
          const data = {
            code,
            httpStatus: status,
            path: path.slice('/trpc/'.length).split('?')[0],
            ...extra,
          };
          json(status, { error: { ...error, data } }, retry);
        };
        if (req.method === 'POST' && !req.headers['content-type']) return fail(400, 'BAD_REQUEST');
        const input = body ? (JSON.parse(body) as Record<string, string>) : {};
        if (path === '/trpc/auth.login') {
          if (input.email === 'hang-up@console.test') return req.socket.destroy();
          if (input.email === 'proxy@console.test') {
            res.writeHead(502, { 'content-type': 'text/html' });
            return res.end('<h1>Bad gateway</h1>');
          }
          if (input.email === 'throttled@console.test')
            return fail(429, 'TOO_MANY_REQUESTS', { retryAfter: 900 });
          if (!input.email?.includes('@')) {
            return fail(422, 'VALIDATION_FAILED', {
              errors: [{ field: 'email', message: 'Invalid email address' }],
            });
          }
          if (input.password !== 'right') return fail(401, 'UNAUTHORIZED');
          return data({ ...TOKENS, accessToken: 'access-new', refreshToken: 'refresh-new', user: USER });
        }
        if (path === '/trpc/users.create') {
          if (input.email === 'taken@console.test') return fail(409, 'CONFLICT');
          return data({ ...USER, id: 'u-2', username: input.username, email: input.email, role: 'user' });
        }
        if (path === '/trpc/auth.refresh') {
          const { refreshToken } = input as { refreshToken: string };
          if (refreshToken.startsWith('good')) {
            return data({
              ...TOKENS,
              accessToken: `access-for-${refreshToken}`,
              refreshToken: `next-${refreshToken}`,
              user: USER,
            });
          }
          if (refreshToken === 'down') return fail(503, 'SERVICE_UNAVAILABLE', { retryAfter: 5 });
          return fail(401, 'UNAUTHORIZED');
        }
        // API keys and the activity log (test/fake-records.ts), new webhooks (test/fake-webhooks.ts),
        // for a session's bearer token.
        if (answerRecords(path, input, req.headers.authorization, data, fail)) return;
        if (answerWebhooks(path, input, req.headers.authorization, data, fail)) return;
        // Public: answered whoever asks.
        if (path === '/trpc/auth.requestPasswordReset') return json(202, { result: {} });
        if (path.startsWith('/trpc/')) {
          if (req.headers.authorization?.startsWith('Bearer access'))
            return data(path === '/trpc/auth.logout' ? undefined : 'ok');
          return fail(401, 'UNAUTHORIZED');
        }
        json(404, { code: 'NOT_FOUND', message: path });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    process.env.API_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    fake.session = await import('../src/server/session');
    fake.trpcRoute = await import('../src/app/api/trpc/[trpc]/route');
    fake.refreshRoute = await import('../src/app/api/session/refresh/route');
    fake.sessionRoute = await import('../src/app/api/session/route');
    fake.signUpRoute = await import('../src/app/api/session/sign-up/route');
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  beforeEach(() => {
    fake.calls = [];
    resetRecords();
    resetWebhooks();
  });
}

export function request(
  path: string,
  options: {
    method?: string;
    cookies?: Record<string, string>;
    origin?: string;
    body?: string;
    headers?: Record<string, string>;
  } = {},
) {
  const cookie = Object.entries(options.cookies ?? {})
    .map(([name, value]) => `${name}=${value}`)
    .join('; ');
  return new NextRequest(`http://console.test${path}`, {
    method: options.method ?? 'GET',
    headers: {
      host: 'console.test',
      origin: options.origin ?? 'http://console.test',
      ...(cookie ? { cookie } : {}),
      ...(options.method === 'POST' ? { 'content-type': 'application/json' } : {}),
      ...options.headers,
    },
    ...(options.method === 'POST' ? { body: options.body ?? '{}' } : {}),
  });
}

/** The cookies a response sets: name -> { value, maxAge, httpOnly }. */
export function setCookies(res: Response) {
  const out: Record<string, { value: string; maxAge?: number; httpOnly: boolean }> = {};
  for (const line of res.headers.getSetCookie()) {
    const [pair, ...attributes] = line.split(';').map((part) => part.trim());
    const [name, ...value] = pair!.split('=');
    const maxAge = attributes.find((a) => a.toLowerCase().startsWith('max-age='));
    out[name!] = {
      value: value.join('='),
      ...(maxAge ? { maxAge: Number(maxAge.split('=')[1]) } : {}),
      httpOnly: attributes.some((a) => a.toLowerCase() === 'httponly'),
    };
  }
  return out;
}

export const procedure = (name: string) => ({ params: Promise.resolve({ trpc: name }) });
