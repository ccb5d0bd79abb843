import type { IncomingMessage, ServerResponse } from 'node:http';
import { appErrorOf } from '@music/api-router';
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
 * The one way a failure becomes an answer, for every transport: what nobody expected is logged
 * (and answered as a 500 that reveals nothing), a refused oversized body closes the connection
 * (its unread rest must not be taken for the next request), and an answer already under way is
 * cut off rather than followed by a second one. Returns the error as answered, for a transport
 * that writes its own body (`/trpc`'s envelope): `send: false` then.
 */
export function answerFailure(
  exchange: Exchange,
  error: unknown,
  logInternal: InternalErrorLog,
  send = true,
) {
  const { error: app, isInternal } = appErrorOf(error);
  if (isInternal) logInternal(exchange.requestId, error);
  if (app.code === 'PAYLOAD_TOO_LARGE') exchange.headers.Connection = 'close';
  if (!send) return app;
  if (exchange.res.headersSent) exchange.res.destroy();
  else sendError(exchange.res, app, exchange.headers);
  return app;
}
