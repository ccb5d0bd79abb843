import type { IncomingMessage, ServerResponse } from 'node:http';
import { type AppError, appErrorOf } from '@music/api-router';
import { sendError } from './http';

/**
 * One request and what has been decided about it so far: what the router in app.ts hands to a
 * transport (`/trpc`, the service routes, the REST edge) and each of their steps passes on, in
 * place of a request, a response and four loose arguments (tRPC's node-http adapter and
 * fastify's request/reply carry one object the same way).
 */
export interface Exchange {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly url: URL;
  /** The path's segments after the version (`/v1/songs/1` → `songs`, `1`), percent-decoded. */
  readonly route: readonly string[];
  readonly requestId: string;
  /**
   * What every answer to this request carries, whatever it turns out to be: the request id and
   * caching to start with; the steps add theirs (CORS, RateLimit, ETag, Link) as they go.
   */
  readonly headers: Record<string, string>;
}

/** Logs a failure nobody expected with its request id; the client is told nothing of it. */
export type InternalErrorLog = (requestId: string, error: unknown) => void;

/**
 * What a failure is to the client, the same for every transport: what nobody expected is logged
 * (and becomes a 500 that reveals nothing), and a refused oversized body closes the connection
 * (its unread rest must not be taken for the next request). `/trpc`'s fast path writes the
 * result in tRPC's envelope; the others answer it with `answerFailure`.
 */
export function failureOf(exchange: Exchange, error: unknown, logInternal: InternalErrorLog): AppError {
  const { error: app, isInternal } = appErrorOf(error);
  if (isInternal) logInternal(exchange.requestId, error);
  if (app.code === 'PAYLOAD_TOO_LARGE') exchange.headers.Connection = 'close';
  return app;
}

/** A failure answered in the contract's error body; an answer already under way is cut off instead. */
export function answerFailure(exchange: Exchange, error: unknown, logInternal: InternalErrorLog): void {
  const app = failureOf(exchange, error, logInternal);
  if (exchange.res.headersSent) exchange.res.destroy();
  else sendError(exchange.res, app, exchange.headers);
}
