import type { Server, ServerResponse } from 'node:http';

// How long the drain goes on taking connections the kernel has already established. A queue an
// instance built while busy empties in far less; the bound is for traffic that never stops.
const ACCEPT_QUEUED_MS = 2_000;

export interface Drain {
  /**
   * Answers from now on say `Connection: close`, the ones being prepared too; after `delayMs`
   * the listener closes and connections are closed as they fall idle. Resolves once none is left
   * (all of them are cut `graceMs` after the delay).
   */
  drain(options: { delayMs: number; graceMs: number }): Promise<void>;
}

export function drainable(server: Server): Drain {
  let draining = false;
  let accepted = 0;
  const inFlight = new Set<ServerResponse>();
  server.on('connection', () => {
    accepted++;
  });
  // Ahead of the application's listener, which may answer before it returns.
  server.prependListener('request', (_req, res: ServerResponse) => {
    if (draining) res.setHeader('connection', 'close');
    inFlight.add(res);
    res.once('close', () => inFlight.delete(res));
  });

  /**
   * Closing the listener resets every connection still in the kernel's listen queue, and the
   * clients of those had already sent their requests (8-31 of 40 sent 20 ms before SIGTERM, on
   * a loaded machine). libuv takes one connection per turn of the event loop (libuv#3696), so a
   * busy instance has a queue: take it before closing. Each
   * round holds at least one poll (a setImmediate set from the check phase runs a turn later);
   * a round that took nothing found the queue empty.
   */
  async function acceptQueued(ms: number): Promise<void> {
    const deadline = Date.now() + ms;
    let before: number;
    do {
      before = accepted;
      await new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
    } while (accepted > before && Date.now() < deadline);
  }

  return {
    async drain({ delayMs, graceMs }) {
      draining = true;
      // So that clients do not send their next request on a connection about to be closed.
      for (const res of inFlight) if (!res.headersSent) res.setHeader('connection', 'close');
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      const deadline = Date.now() + graceMs;
      await acceptQueued(Math.min(ACCEPT_QUEUED_MS, graceMs));
      // http's close() also closes the connections that are idle after an answer. One whose
      // request has not come yet counts as busy there (so its headers timeout runs): it is
      // answered, or cut with the rest.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Answers already under way with keep-alive leave their connection idle: close it then,
      // instead of waiting for the client (or keepAliveTimeout) to do it.
      const idle = setInterval(() => server.closeIdleConnections(), 50);
      const cut = setTimeout(() => server.closeAllConnections(), Math.max(0, deadline - Date.now()));
      await closed;
      clearInterval(idle);
      clearTimeout(cut);
    },
  };
}
