import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { observeStatements, type StatementObserver } from '@music/db';
import type { Context } from '@opentelemetry/api';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import { labelOf } from '../http/operation-label';
import type { Env } from './env';
import type { AppLogger } from './logger';

/**
 * Traces over OpenTelemetry, on when OTEL_EXPORTER_OTLP_ENDPOINT is set. The spans are made here
 * by hand with `@opentelemetry/api` rather than by the auto-instrumentations (http, pg), which
 * patch modules as they are loaded: the API runs as an ES module bundle whose `pg` import those
 * hooks do not see without an extra loader, and the embedded database (PGlite) has no
 * instrumentation at all. So:
 * - each request gets a server span, started by the request listener (server.ts) and ended when
 *   the answer is finished, carrying the request id and the route or procedure it was for;
 * - each statement a request runs gets a child span from our own drivers' hook (@music/db's
 *   observeStatements), on a PostgreSQL server and on PGlite alike;
 * - work outside requests (housekeeping, webhook dispatch and deliveries, the job queue) is not
 *   traced, and nothing is propagated to webhook receivers.
 * Only the type imports above are static: without the variable the SDK is not loaded (prom-client,
 * for the metrics, loads the no-op API package itself), and a request only checks for tracing.
 */
export interface Tracing {
  /** Runs `handle` inside the request's span, which ends with the answer (or the connection). */
  serve(req: IncomingMessage, res: ServerResponse, requestId: string, handle: () => Promise<void>): void;
  /** Sends the spans still buffered, within `timeoutMs`, and stops. */
  shutdown(timeoutMs?: number): Promise<void>;
}

export interface TracingOptions {
  /** Spans go here, each as it ends, instead of OTLP (tests: an InMemorySpanExporter). */
  exporter?: SpanExporter;
}

type TracingEnv = Pick<Env, 'OTEL_EXPORTER_OTLP_ENDPOINT' | 'OTEL_EXPORTER_OTLP_PROTOCOL'>;

export async function startTracing(
  env: TracingEnv,
  log: Pick<AppLogger, 'warn'>,
  options: TracingOptions = {},
): Promise<Tracing | undefined> {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT && !options.exporter) return undefined;
  const [api, core, resources, sdk] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/core'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/sdk-trace-base'),
  ]);
  // The standard variables are read by the SDK itself: OTEL_SERVICE_NAME and
  // OTEL_RESOURCE_ATTRIBUTES (over the default name `music-api`), OTEL_TRACES_SAMPLER(_ARG),
  // OTEL_EXPORTER_OTLP_HEADERS / _TIMEOUT / _TRACES_ENDPOINT, OTEL_BSP_* (batching).
  const resource = resources
    .defaultResource()
    .merge(resources.resourceFromAttributes({ 'service.name': 'music-api' }))
    .merge(resources.detectResources({ detectors: [resources.envDetector] }));
  const processor = options.exporter
    ? new sdk.SimpleSpanProcessor(options.exporter)
    : new sdk.BatchSpanProcessor(reporting(await otlpExporter(env), log, core.ExportResultCode.SUCCESS));
  const provider = new sdk.BasicTracerProvider({ resource, spanProcessors: [processor] });
  const tracer = provider.getTracer('music-api');
  const { SpanKind, SpanStatusCode, ROOT_CONTEXT, trace, defaultTextMapGetter } = api;
  // A caller's W3C `traceparent` is continued; the OpenTelemetry globals are left alone (the
  // current request's context is kept here, not in the API's global context manager).
  const propagator = new core.W3CTraceContextPropagator();
  const current = new AsyncLocalStorage<Context>();

  const observer: StatementObserver = (text, database, run) => {
    const parent = current.getStore();
    // Outside a request (background work polling every second) nothing is traced.
    if (!parent) return run();
    const operation = text.trimStart().split(/\s/, 1)[0]?.toUpperCase() || 'SQL';
    const span = tracer.startSpan(
      operation,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          'db.system.name': 'postgresql',
          'db.operation.name': operation,
          // Parameters are always sent apart from the text (Kysely binds them): no values here.
          'db.query.text': text,
          'music.db.embedded': database === 'embedded',
        },
      },
      parent,
    );
    return run().then(
      (result) => {
        span.end();
        return result;
      },
      (error: unknown) => {
        const code = (error as { code?: unknown } | undefined)?.code;
        const type = typeof code === 'string' ? code : error instanceof Error ? error.name : 'error';
        span.setAttribute('error.type', type);
        span.setStatus({ code: SpanStatusCode.ERROR, message: type });
        span.end();
        throw error;
      },
    );
  };
  observeStatements(observer);

  function serve(req: IncomingMessage, res: ServerResponse, requestId: string, handle: () => Promise<void>) {
    let context: Context;
    try {
      const method = req.method ?? 'GET';
      const parent = propagator.extract(ROOT_CONTEXT, req.headers, defaultTextMapGetter);
      const span = tracer.startSpan(
        method,
        {
          kind: SpanKind.SERVER,
          attributes: {
            'http.request.method': method,
            'url.path': req.url?.split('?')[0] ?? '/',
            'url.scheme': 'http',
            'network.protocol.version': req.httpVersion,
            'client.address': req.socket.remoteAddress ?? '',
            'user_agent.original': req.headers['user-agent'] ?? '',
            'music.request_id': requestId,
          },
        },
        parent,
      );
      let ended = false;
      const end = () => {
        if (ended) return;
        ended = true;
        // Named by the transport that routed it (nothing parses the path again for the trace).
        const { route, operation } = labelOf(res);
        if (route) {
          span.updateName(`${method} ${route}`);
          span.setAttribute('http.route', route);
        }
        if (operation) span.setAttribute('music.operation', operation);
        span.setAttribute('http.response.status_code', res.statusCode);
        if (!res.writableFinished) {
          // The connection closed before the whole answer was sent (the client went away).
          span.setAttribute('error.type', 'aborted');
          span.setStatus({
            code: SpanStatusCode.ERROR,
            message: 'connection closed before the answer ended',
          });
        } else if (res.statusCode >= 500) {
          // A 4xx is the client's doing: an error of the server span only from 500 on.
          span.setAttribute('error.type', String(res.statusCode));
          span.setStatus({ code: SpanStatusCode.ERROR });
        }
        span.end();
      };
      res.once('finish', end);
      res.once('close', end);
      context = trace.setSpan(parent, span);
    } catch {
      // Tracing never stands in a request's way.
      void handle();
      return;
    }
    void current.run(context, handle);
  }

  let stopping: Promise<void> | undefined;
  const shutdown = (timeoutMs = 2_000) => {
    stopping ??= (async () => {
      observeStatements(undefined);
      let timer: NodeJS.Timeout | undefined;
      const bound = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
      });
      try {
        await Promise.race([provider.shutdown().catch(() => {}), bound]);
      } finally {
        clearTimeout(timer);
      }
    })();
    return stopping;
  };
  return { serve, shutdown };
}

/** OTLP over HTTP, protobuf unless OTEL_EXPORTER_OTLP_PROTOCOL says `http/json`. */
async function otlpExporter(env: TracingEnv): Promise<SpanExporter> {
  // The exporter reads the endpoint (adding /v1/traces) and headers from the environment itself.
  if (env.OTEL_EXPORTER_OTLP_PROTOCOL === 'http/json') {
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
    return new OTLPTraceExporter();
  }
  const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-proto');
  return new OTLPTraceExporter();
}

/**
 * An exporter that says in the log, at most once a minute, that spans could not be sent (the
 * collector down or refusing): the SDK itself would drop them silently. Requests are unaffected.
 */
function reporting(exporter: SpanExporter, log: Pick<AppLogger, 'warn'>, success: number): SpanExporter {
  let warned = 0;
  return {
    export(spans, done) {
      exporter.export(spans, (result) => {
        if (result.code !== success && Date.now() - warned > 60_000) {
          warned = Date.now();
          log.warn('traces could not be exported', { spans: spans.length, error: result.error?.message });
        }
        done(result);
      });
    },
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
}
