import type { IncomingMessage } from 'node:http';
import { authenticate, type Context, createContextInner, type Deps } from '@music/api-router';
import { clientAddressOf, type TrustProxy } from './trust-proxy';

/** Builds a request's procedure context: who calls (`authenticate`) and from where. */
export type CreateContext = (req: IncomingMessage, requestId: string) => Promise<Context>;

/**
 * The bearer token is resolved here, once a request, into an actor or none; whether an
 * operation needs one is the procedure's own check (an invalid token is just no actor).
 */
export function requestContext(deps: Deps, trustProxy: TrustProxy): CreateContext {
  return async (req, requestId) => {
    const header = req.headers.authorization;
    return createContextInner(deps, {
      actor: await authenticate(deps, typeof header === 'string' ? header : undefined),
      clientAddress: clientAddressOf(req, trustProxy),
      requestId,
    });
  };
}
