import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { createTestDatabase, type TestDatabase } from '@music/db/testing';
import { parseTrustProxy } from '../../src/http/trust-proxy';
import type { Env } from '../../src/runtime/env';
import { type RunningServer, startServer } from '../../src/server';
import { checkAgainstDocument } from './openapi-check';

export const TEST_SECRET = 'test-secret-for-the-http-suite-0123456789abcdef';

export function testEnv(overrides: Partial<Env> = {}): Env {
  return {
    NODE_ENV: 'test',
    PORT: 0,
    HOST: '127.0.0.1',
    DATA_DIR: './.data-test-unused',
    LOGIN_MAX_FAILURES_PER_EMAIL: 10,
    LOGIN_MAX_FAILURES_PER_ADDRESS: 100,
    REFRESH_REUSE_GRACE_SECONDS: 10,
    // Off, as the budgets: every suite signs up from one address. The suites of these limits turn them on.
    SIGNUPS_PER_ADDRESS_PER_HOUR: 0,
    PASSWORD_RESETS_PER_QUARTER_HOUR: 0,
    MAIL_FROM: 'Music catalogue <no-reply@test.example>',
    CONSOLE_URL: 'https://console.test.example',
    DB_POOL_MAX: 5,
    LOG_LEVEL: 'silent',
    LOG_FORMAT: 'json',
    TRUST_PROXY: 'loopback',
    CORS_ORIGINS: '',
    SEED_DEMO_DATA: 'false',
    DATABASE_POOLER: 'none',
    MIGRATE_ON_START: 'true',
    ACCESS_TOKEN_TTL_SECONDS: 86_400,
    SHUTDOWN_DELAY_SECONDS: 0,
    // Off: a clean-up at a random moment would change rows under the tests' feet.
    HOUSEKEEPING_INTERVAL_SECONDS: 0,
    HOUSEKEEPING_BATCH_SIZE: 5_000,
    AUDIT_RETENTION_DAYS: 365,
    EVENT_RETENTION_DAYS: 30,
    WEBHOOK_RETRY_SECONDS: [5, 300, 1800, 7200, 18_000, 36_000, 36_000],
    WEBHOOK_MAX_FAILURES: 50,
    WEBHOOK_ALLOW_HTTP: 'false',
    WEBHOOK_ALLOW_PRIVATE: 'false',
    // Off: every suite signs up and signs in from one address, far over the anonymous budget's
    // default; budgets.test.ts turns them on.
    RATE_LIMIT_PER_MINUTE: 0,
    RATE_LIMIT_ANONYMOUS_PER_MINUTE: 0,
    jwtSecret: TEST_SECRET,
    jwtSecretSource: 'configured',
    jwtPreviousSecrets: [],
    trustProxy: parseTrustProxy('loopback'),
    corsOrigins: [],
    DATABASE_READ_URLS: '',
    REPLICA_MAX_LAG_SECONDS: 5,
    readUrls: [],
    ...overrides,
  };
}

export interface Response<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  /** The raw body text ('' for 204). */
  text: string;
}

export interface Client {
  url: string;
  // biome-ignore lint/suspicious/noExplicitAny: test bodies are read loosely; assertions check their shape.
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<Response<T>>;
}

export interface RequestOptions {
  token?: string | undefined;
  body?: unknown;
  /** Sent as is (for malformed-body tests); overrides `body`. */
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
}

export function createClient(url: string): Client {
  return {
    url,
    async request(method, path, options = {}) {
      const headers: Record<string, string> = { ...(options.headers ?? {}) };
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      let body: string | Buffer | undefined;
      if (options.rawBody !== undefined) body = options.rawBody;
      else if (options.body !== undefined) {
        body = JSON.stringify(options.body);
        headers['content-type'] ??= 'application/json';
      }
      const response = await fetch(`${url}${path}`, { method, headers, body });
      const text = await response.text();
      if (url.endsWith('/v1')) {
        const problem = checkAgainstDocument(method, path, response.status, response.headers, text);
        if (problem) throw new Error(`Response not described by /v1/openapi.json: ${problem}`);
      }
      let parsed: unknown = text;
      if (response.headers.get('content-type')?.includes('application/json') && text)
        parsed = JSON.parse(text);
      return { status: response.status, headers: response.headers, body: parsed as never, text };
    },
  };
}

export interface TestApi extends Client {
  database: TestDatabase;
  server: RunningServer;
  /** Signs up a fresh user (role set directly in the database when not `user`) and signs in. */
  signUp(role?: 'user' | 'artist' | 'admin'): Promise<SignedIn>;
  /** A second server on the same database (another instance of the service). */
  startSibling(overrides?: Partial<Env>): Promise<Client & { close(): Promise<void> }>;
  close(): Promise<void>;
}

export interface SignedIn {
  id: string;
  email: string;
  password: string;
  role: string;
  token: string;
  refreshToken: string;
}

export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${randomBytes(6).toString('hex')}@example.com`;
}

/** A real API server on a fresh database of its own (embedded, or on TEST_DATABASE_URL). */
export async function startTestApi(overrides: Partial<Env> = {}): Promise<TestApi> {
  const database = await createTestDatabase();
  const server = await startServer(testEnv(overrides), { database });
  const client = createClient(`${server.url}/v1`);
  const siblings: Array<() => Promise<void>> = [];

  async function signUp(role: 'user' | 'artist' | 'admin' = 'user'): Promise<SignedIn> {
    const email = uniqueEmail(role);
    const password = `pw-${randomBytes(8).toString('hex')}`;
    const created = await client.request<{ id: string }>('POST', '/users', {
      body: { username: `${role} ${email.slice(0, 12)}`, email, password },
    });
    if (created.status !== 201) throw new Error(`sign-up failed: ${created.status} ${created.text}`);
    if (role !== 'user') {
      await database.db.updateTable('users').set({ role }).where('id', '=', created.body.id).execute();
    }
    const login = await client.request<{ accessToken: string; refreshToken: string }>('POST', '/auth/login', {
      body: { email, password },
    });
    if (login.status !== 200) throw new Error(`login failed: ${login.status} ${login.text}`);
    return {
      id: created.body.id,
      email,
      password,
      role,
      token: login.body.accessToken,
      refreshToken: login.body.refreshToken,
    };
  }

  return {
    ...client,
    database,
    server,
    signUp,
    async startSibling(siblingOverrides = {}) {
      const sibling = await startServer(testEnv({ ...overrides, ...siblingOverrides }), { database });
      const close = () => sibling.close({ graceMs: 1_000 });
      siblings.push(close);
      return { ...createClient(`${sibling.url}/v1`), close };
    },
    async close() {
      await Promise.all(siblings.map((close) => close()));
      await server.close({ graceMs: 1_000 });
      await database.close();
    },
  };
}

/** Opens a TCP connection to the port and says what happened: `connected`, or the error code. */
export function tryConnect(port: number, host = '127.0.0.1'): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}
