import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestDatabase, type TestDatabase } from '@music/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseEnv, ensureBundle, spawnBundle } from '../support/child-api';
import { TEST_SECRET } from '../support/harness';

/**
 * Traces from the built bundle, the way production runs it (`node dist/server.mjs`), sent over
 * OTLP/HTTP to a receiver of the test's own. The server runs on the embedded database in a
 * folder shared by the runs (migrated once), or on a test database of TEST_DATABASE_URL's server.
 */

const API_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BUNDLE = path.join(API_DIR, 'dist/server.mjs');
const dataDir = mkdtempSync(path.join(tmpdir(), 'music-traces-'));

interface Exported {
  contentType: string;
  body: Buffer;
}
const received: Exported[] = [];
let receiver: Server;
let endpoint: string;
let database: TestDatabase | undefined;

beforeAll(async () => {
  ensureBundle();
  if (process.env.TEST_DATABASE_URL) database = await createTestDatabase();
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.url === '/v1/traces')
        received.push({ contentType: req.headers['content-type'] ?? '', body: Buffer.concat(chunks) });
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
  await database?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

interface Api {
  url: string;
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exited: Promise<number | null>;
}

async function startBundle(env: Record<string, string>): Promise<Api> {
  const child = spawnBundle({
    NODE_ENV: 'test',
    PORT: '0',
    DATA_DIR: dataDir,
    JWT_SECRET: TEST_SECRET,
    LOG_LEVEL: 'info',
    HOUSEKEEPING_INTERVAL_SECONDS: '0',
    ...databaseEnv(database),
    ...env,
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.includes('"api listening"'));
      if (line) resolve((JSON.parse(line) as { url: string }).url);
    });
    void exited.then(() => reject(new Error(`exited early: ${out} ${err.slice(-2000)}`)));
  });
  return { url, child, exited, stdout: () => out, stderr: () => err };
}

type Attribute = { key: string; value: Record<string, unknown> };
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: Attribute[];
}

const attributeOf = (attributes: Attribute[], key: string) => {
  const value = attributes.find((a) => a.key === key)?.value;
  return value ? Object.values(value)[0] : undefined;
};

/** The JSON payloads received so far: every span with its resource's service name. */
function spansReceived(): Array<OtlpSpan & { service: unknown }> {
  return received
    .filter((r) => r.contentType.includes('json'))
    .flatMap((r) => {
      const payload = JSON.parse(r.body.toString()) as {
        resourceSpans: Array<{
          resource: { attributes: Attribute[] };
          scopeSpans: Array<{ spans: OtlpSpan[] }>;
        }>;
      };
      return payload.resourceSpans.flatMap((rs) =>
        rs.scopeSpans.flatMap((ss) =>
          ss.spans.map((s) => ({ ...s, service: attributeOf(rs.resource.attributes, 'service.name') })),
        ),
      );
    });
}

/** A sign-in that fails (401) after looking the address up: a public request with statements. */
function signIn(url: string, headers: Record<string, string> = {}) {
  return fetch(`${url}/v1/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify({ email: `nobody-${randomUUID()}@example.com`, password: 'not-the-password' }),
  });
}

async function until<T>(find: () => T | undefined, ms: number): Promise<T | undefined> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = find();
    if (found !== undefined || Date.now() > deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('traces from the built bundle', () => {
  it('sends the request span, its request id and its statements to the OTLP endpoint, flushed on SIGTERM', async () => {
    const api = await startBundle({
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'music-api-under-test',
      // Nothing is sent on the batch's own schedule: only the flush at shutdown can deliver it.
      OTEL_BSP_SCHEDULE_DELAY: '600000',
      // Loaded modules on stderr: OpenTelemetry's are among them only when tracing is on.
      NODE_DEBUG: 'module',
    });
    try {
      const requestId = `bundle-${randomUUID()}`;
      const res = await signIn(api.url, { 'X-Request-Id': requestId });
      expect(res.status).toBe(401);
      expect(res.headers.get('x-request-id')).toBe(requestId);
      expect(received).toHaveLength(0);
      api.child.kill('SIGTERM');
      expect(await api.exited).toBe(0);
      const spans = spansReceived();
      const server = spans.find((s) => attributeOf(s.attributes, 'music.request_id') === requestId);
      expect(server).toMatchObject({ name: 'POST /v1/auth/login', service: 'music-api-under-test' });
      expect(attributeOf(server!.attributes, 'music.operation')).toBe('auth.login');
      expect(Number(attributeOf(server!.attributes, 'http.response.status_code'))).toBe(401);
      const statements = spans.filter(
        (s) => s.traceId === server!.traceId && s.parentSpanId === server!.spanId,
      );
      expect(statements.length).toBeGreaterThan(0);
      expect(statements.map((s) => attributeOf(s.attributes, 'db.system.name'))).toContain('postgresql');
      expect(api.stderr()).toMatch(/node_modules\/@opentelemetry\/sdk-trace-base\//);
    } finally {
      api.child.kill('SIGKILL');
    }
  });

  it('serves requests while the collector is unreachable, and says so in the log', async () => {
    const api = await startBundle({
      // Nothing listens there (port 9 is discard; nothing answers it on a test machine).
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9',
      OTEL_BSP_SCHEDULE_DELAY: '100',
      OTEL_EXPORTER_OTLP_TIMEOUT: '500',
    });
    try {
      for (let i = 0; i < 3; i++) {
        expect((await signIn(api.url)).status).toBe(401);
      }
      expect((await fetch(`${api.url}/v1/health`)).status).toBe(200);
      const warned = await until(
        () => (api.stdout().includes('traces could not be exported') ? true : undefined),
        15_000,
      );
      expect(warned).toBe(true);
    } finally {
      api.child.kill('SIGKILL');
    }
  });

  it('loads no OpenTelemetry module without OTEL_EXPORTER_OTLP_ENDPOINT', async () => {
    // What the bundle imports at its top: OpenTelemetry only ever through import().
    const bundle = readFileSync(BUNDLE, 'utf8');
    expect(bundle).toContain('import("@opentelemetry/sdk-trace-base")');
    expect(bundle).not.toMatch(/^import[^;]*from\s*"@opentelemetry\//m);
    const api = await startBundle({ NODE_DEBUG: 'module' });
    try {
      expect((await signIn(api.url)).status).toBe(401);
      // The modules it did load are listed (pg among them), OpenTelemetry's SDK and exporters are
      // not. Only its API package may be there: prom-client (the metrics) loads it when installed.
      expect(api.stderr()).toMatch(/node_modules\/pg\/lib\//);
      expect(api.stderr()).not.toMatch(/node_modules\/@opentelemetry\/(?!api\/)/);
    } finally {
      api.child.kill('SIGKILL');
    }
  });
});
