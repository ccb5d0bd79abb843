import type { IncomingMessage } from 'node:http';
import { clientAddress, type TrustProxy, unmapped } from '@music/auth/trust-proxy';

export { parseTrustProxy, type TrustProxy } from '@music/auth/trust-proxy';

/** The address of the peer that sent the request (a proxy, or the client itself). */
function peerOf(req: IncomingMessage): string {
  return unmapped(req.socket.remoteAddress ?? 'unknown');
}

/** Whether the request came straight from a trusted proxy (whose forwarded headers count). */
export function fromTrustedProxy(req: IncomingMessage, trust: TrustProxy): boolean {
  return trust.trusts(peerOf(req));
}

/** The client's address (see `clientAddress`): the peer, or what the trusted proxies in front of it report. */
export function clientAddressOf(req: IncomingMessage, trust: TrustProxy): string {
  return clientAddress(req.socket.remoteAddress ?? 'unknown', req.headers['x-forwarded-for'], trust);
}
