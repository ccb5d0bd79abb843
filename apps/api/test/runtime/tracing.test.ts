import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestDatabase } from '@music/db/testing';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { afterAll, describe, expect, it } from 'vitest';
import { loadEnv } from '../../src/runtime/env';
import { startTracing, type Tracing } from '../../src/runtime/tracing';
import { startServer } from '../../src/server';
import { createClient, TEST_SECRET, testEnv } from '../support/harness';

/**
 * Traces in process: spans go to an in-memory exporter as each ends. The API runs on a database
 * of its own (embedded, or on TEST_DATABASE_URL's server): statement spans come from our drivers
 * on both.
 */

const quiet = { warn: () => {} };
const exporter = new InMemorySpanExporter();
const tracing = (await startTracing(testEnv(), quiet, { exporter })) as Tracing;
const database = await createTestDatabase();
const server = await startServer(testEnv(), { database, tracing });
const api = createClient(`${server.url}/v1`);
afterAll(async () => {
  await server.close({ graceMs: 1_000 });
  await database.close();
  await tracing.shutdown();
});

const finished = () => exporter.getFinishedSpans();

/** The server span that carries this request id (it ends just after the answer is sent). */
async function serverSpan(requestId: string): Promise<ReadableSpan> {
  const deadline = Date.now() + 2_000;
  for (;;) {
    const span = finished().find((s) => s.attributes['music.request_id'] === requestId);
    if (span || Date.now() > deadline) {
      if (!span) throw new Error(`no span with request id ${requestId}`);
      return span;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const childrenOf = (parent: ReadableSpan) =>
  finished().filter(
    (s) =>
      s.spanContext().traceId === parent.spanContext().traceId &&
      s.parentSpanContext?.spanId === parent.spanContext().spanId,
  );

const failedSignIn = (headers: Record<string, string> = {}) =>
  api.request('POST', '/auth/login', {
    body: { email: `nobody-${Date.now()}@example.com`, password: 'not-the-password' },
    headers,
  });

describe('traces of requests', () => {
  it('gives a request a server span with the request id it was sent and answered, and its operation', async () => {
    const res = await failedSignIn({ 'x-request-id': 'trace-me-1' });
    expect(res.status).toBe(401);
    expect(res.headers.get('x-request-id')).toBe('trace-me-1');
    const span = await serverSpan('trace-me-1');
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.name).toBe('POST /v1/auth/login');
    expect(span.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/v1/auth/login',
      'music.operation': 'auth.login',
      'http.response.status_code': 401,
      'url.path': '/v1/auth/login',
    });
    // A 4xx is the client's doing: the server span is not an error.
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
  });

  it("puts the request's statements under its span, on either database", async () => {
    await failedSignIn({ 'x-request-id': 'trace-me-2' });
    const span = await serverSpan('trace-me-2');
    const statements = childrenOf(span);
    expect(statements.length).toBeGreaterThan(0);
    for (const statement of statements) {
      expect(statement.kind).toBe(SpanKind.CLIENT);
      expect(statement.attributes['db.system.name']).toBe('postgresql');
      expect(statement.attributes['music.db.embedded']).toBe(database.kind === 'embedded');
      expect(String(statement.attributes['db.query.text'])).toMatch(/^\s*\w+/);
      expect(statement.name).toBe(statement.attributes['db.operation.name']);
    }
    // The address is looked up among the users; the statement's parameters are not in its text.
    const texts = statements.map((s) => String(s.attributes['db.query.text'])).join('\n');
    expect(texts).toMatch(/"users"/);
    expect(texts).not.toContain('nobody-');
  });

  it('carries the id the service generated when the client sent none (or an unusable one)', async () => {
    const res = await api.request('GET', '/health', { headers: { 'x-request-id': 'not a valid id' } });
    const answered = res.headers.get('x-request-id')!;
    expect(answered).toMatch(/^[0-9a-f-]{36}$/);
    const span = await serverSpan(answered);
    expect(span.attributes['http.response.status_code']).toBe(200);
  });

  it('names /trpc calls by their procedure and unknown paths by their method only', async () => {
    const rpc = await fetch(`${server.url}/trpc/songs.get?input=${encodeURIComponent('{"songId":"x"}')}`, {
      headers: { 'x-request-id': 'trace-me-rpc' },
    });
    expect(rpc.status).toBe(401);
    const call = await serverSpan('trace-me-rpc');
    expect(call.name).toBe('GET /trpc/songs.get');
    expect(call.attributes['music.operation']).toBe('songs.get');

    const missing = await api.request('GET', '/no/such/thing', {
      headers: { 'x-request-id': 'trace-me-404' },
    });
    expect(missing.status).toBe(404);
    const lost = await serverSpan('trace-me-404');
    expect(lost.name).toBe('GET');
    expect(lost.attributes['http.route']).toBeUndefined();
    expect(lost.attributes['http.response.status_code']).toBe(404);
    expect(lost.status.code).toBe(SpanStatusCode.UNSET);

    // A path that exists with another method keeps its template, without an operation.
    const wrong = await api.request('DELETE', '/auth/login', { headers: { 'x-request-id': 'trace-me-405' } });
    expect(wrong.status).toBe(405);
    const refused = await serverSpan('trace-me-405');
    expect(refused.attributes['http.route']).toBe('/v1/auth/login');
    expect(refused.attributes['music.operation']).toBeUndefined();
  });

  it("continues the caller's trace (W3C traceparent)", async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    await api.request('GET', '/health', {
      headers: { 'x-request-id': 'trace-me-parent', traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
    });
    const span = await serverSpan('trace-me-parent');
    expect(span.spanContext().traceId).toBe(traceId);
    expect(span.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
  });
});

describe('failures', () => {
  /** A bare server whose every request is served through `tracing` by `handle`. */
  async function traced(
    through: Tracing,
    handle: (res: ServerResponse) => void,
  ): Promise<{ url: string; server: Server }> {
    const bare = createServer((req, res) => through.serve(req, res, 'bare-request', async () => handle(res)));
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(bare.address() as AddressInfo).port}`, server: bare };
  }

  it('marks a 5xx answer as an error of the server span', async () => {
    const { url, server: bare } = await traced(tracing, (res) => res.writeHead(500).end());
    try {
      expect((await fetch(url)).status).toBe(500);
      const span = await serverSpan('bare-request');
      expect(span.status.code).toBe(SpanStatusCode.ERROR);
      expect(span.attributes['error.type']).toBe('500');
    } finally {
      await new Promise((resolve) => bare.close(resolve));
    }
  });

  it('answers requests when the exporter throws', async () => {
    const broken: SpanExporter = {
      export: () => {
        throw new Error('collector on fire');
      },
      shutdown: async () => {},
    };
    const failing = (await startTracing(testEnv(), quiet, { exporter: broken })) as Tracing;
    const { url, server: bare } = await traced(failing, (res) => res.writeHead(200).end('ok'));
    try {
      for (let i = 0; i < 3; i++) expect(await (await fetch(url)).text()).toBe('ok');
    } finally {
      await new Promise((resolve) => bare.close(resolve));
      await failing.shutdown();
    }
  });
});

describe('configuration', () => {
  it('is off without OTEL_EXPORTER_OTLP_ENDPOINT and refuses an endpoint that is not a URL', async () => {
    expect(await startTracing(testEnv(), quiet)).toBeUndefined();
    const load = (vars: Record<string, string>) => loadEnv({ JWT_SECRET: TEST_SECRET, ...vars });
    expect(load({}).OTEL_EXPORTER_OTLP_ENDPOINT).toBeUndefined();
    expect(load({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }).OTEL_EXPORTER_OTLP_ENDPOINT).toBe(
      'http://collector:4318',
    );
    expect(() => load({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(
      /OTEL_EXPORTER_OTLP_ENDPOINT/,
    );
    expect(() => load({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(/OTEL_EXPORTER_OTLP_PROTOCOL/);
  });
});
