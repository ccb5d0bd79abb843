import type { IncomingMessage } from 'node:http';
import { authenticate, type Context, createContextInner, type Deps } from '@music/api-router';
import { clientAddressOf, type TrustProxy } from './trust-proxy';

/** Builds a request's procedure context: who calls (`authenticate`) and from where. */
export type CreateContext = (req: IncomingMessage, requestId: string) => Promise<Context>;

/**
 * The bearer token is resolved here, once a request, into an actor or none; whether an
 * operation needs one is the procedure's own check. A token that was sent and refused is
 * flagged: every operation answers 401 then (version 1.1), also those open to anonymous callers.
 */
export function requestContext(deps: Deps, trustProxy: TrustProxy): CreateContext {
  return async (req, requestId) => {
    const header = req.headers.authorization;
    const actor = await authenticate(deps, typeof header === 'string' ? header : undefined);
    return createContextInner(deps, {
      actor,
      clientAddress: clientAddressOf(req, trustProxy),
      requestId,
      tokenRefused: actor === null && typeof header === 'string' && header !== '',
    });
  };
}
