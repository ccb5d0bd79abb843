// The console's HTTP server: Next's request handler behind one rewrite of the forwarding headers
// (forwarded.ts says why). `pnpm dev`, `pnpm start`, the browser tests and the fleet test all run
// the console this way (built to dist/console-server.mjs by build-server.mjs): `next start` alone
// would pass a browser's own X-Forwarded-For on to the API.
import { createServer, type IncomingMessage } from 'node:http';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { rewriteForwardedHeaders } from './forwarded';
import { type ConsoleSettings, readSettings } from './settings';

/** How long requests under way may take to finish after SIGTERM or SIGINT. */
const DRAIN_MS = 10_000;

function fail(message: string): never {
  process.stderr.write(`music-console: start-up failed: ${message}\n`);
  process.exit(1);
}

let settings: ConsoleSettings;
try {
  settings = readSettings(process.env, process.argv.slice(2));
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
const { dev, hostname, port, trustProxy } = settings;

// Next, and the React build it picks, read NODE_ENV as they load: it is set before the import, as
// `next dev` and `next start` set it.
Object.assign(process.env, { NODE_ENV: dev ? 'development' : 'production' });
const { default: next } = await import('next');

// The Next project: this file runs from apps/web/dist (built) or apps/web/console-server.
const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const server = createServer();
const app = next({ dev, dir, hostname, port, turbopack: dev, httpServer: server });
const handle = app.getRequestHandler();

/** False for a connection that is gone already: nothing could be answered on it. */
function rewrite(req: IncomingMessage): boolean {
  const peer = req.socket.remoteAddress;
  if (!peer) return false;
  rewriteForwardedHeaders(req.headers, peer, trustProxy);
  return true;
}

let underWay = 0;
let stopping = false;
let onDrained: (() => void) | undefined;

server.on('request', (req, res) => {
  if (!rewrite(req)) {
    res.destroy();
    return;
  }
  underWay++;
  res.once('close', () => {
    underWay--;
    if (underWay === 0) onDrained?.();
  });
  handle(req, res).catch((error: unknown) => {
    console.error(error);
    if (res.headersSent) res.destroy();
    else res.writeHead(500).end();
  });
});
// Upgrades (the development server's hot-reload socket) go to a listener Next adds on the first
// request; this one was added before it, so it runs first.
server.on('upgrade', (req: IncomingMessage, socket: Duplex) => {
  if (!rewrite(req)) socket.destroy();
});

/**
 * Stops listening, lets the requests under way finish (DRAIN_MS at most) and exits 0. Upgraded
 * sockets are not waited for. A second signal exits at once.
 */
function stop(): void {
  if (stopping || !server.listening) process.exit(0);
  stopping = true;
  server.close();
  server.closeIdleConnections();
  let exiting = false;
  onDrained = () => {
    if (exiting) return;
    exiting = true;
    void app.close().finally(() => process.exit(0));
  };
  if (underWay === 0) onDrained();
  setTimeout(() => process.exit(0), DRAIN_MS).unref();
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

server.on('error', (error) => fail(error.message));
await app.prepare().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
server.listen(port, hostname, () => {
  const host = hostname.includes(':') ? `[${hostname}]` : hostname;
  process.stdout.write(
    `music-console: listening on http://${host}:${port} (${dev ? 'development' : 'production'}, TRUST_PROXY ${trustProxy.description})\n`,
  );
});
