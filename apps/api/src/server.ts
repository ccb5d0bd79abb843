import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { DEFAULT_SETTINGS, type Deps, ensureAdmin } from '@music/api-router';
import { createTokenService } from '@music/auth';
import { createDatabase, type Database, uuidv7 } from '@music/db';
import { createApp } from './app';
import { seedDemoData } from './demo-seed';
import { type Env, loadEnv } from './env';
import { requestIdOf } from './http';
import { createLogger } from './logger';

export const TOKEN_ISSUER = 'music-catalogue';
export const TOKEN_AUDIENCE = 'music-catalogue-api';

export interface RunningServer {
  server: Server;
  url: string;
  database: Database;
  /** Stops accepting, lets in-flight requests finish (up to `graceMs`), closes the database. */
  close(graceMs?: number): Promise<void>;
}

/** Starts the API: database, migrations (under a lock), bootstrap admin, HTTP listener. */
export async function startServer(env: Env, injected?: { database?: Database }): Promise<RunningServer> {
  const log = createLogger(env.LOG_LEVEL);
  const database =
    injected?.database ??
    (await createDatabase({
      databaseUrl: env.DATABASE_URL,
      dataDir: env.DATA_DIR,
      poolMax: env.DB_POOL_MAX,
      onPoolError: (error) => log.warn('database connection lost', { error: error.message }),
    }));
  if (!injected?.database) await database.migrate();

  const deps: Deps = {
    db: database.db,
    tokens: createTokenService({ secret: env.jwtSecret, issuer: TOKEN_ISSUER, audience: TOKEN_AUDIENCE }),
    log,
    settings: {
      ...DEFAULT_SETTINGS,
      loginMaxFailuresPerEmail: env.LOGIN_MAX_FAILURES_PER_EMAIL,
      loginMaxFailuresPerAddress: env.LOGIN_MAX_FAILURES_PER_ADDRESS,
    },
  };
  if (env.ADMIN_EMAIL && env.ADMIN_PASSWORD) await ensureAdmin(deps, env.ADMIN_EMAIL, env.ADMIN_PASSWORD);
  if (env.SEED_DEMO_DATA === 'true' && env.NODE_ENV !== 'production') await seedDemoData(deps);

  const handler = createApp({ deps, database, trustProxy: env.trustProxy });
  const server = createServer(
    {
      // Slow or oversized headers are cut off instead of holding a socket.
      headersTimeout: 10_000,
      requestTimeout: 30_000,
      // How often those two timeouts are checked: node's default (30 s) would let a slow
      // client hold its socket for up to 40 s instead of 10.
      connectionsCheckingInterval: 1_000,
      maxHeaderSize: 16 * 1024,
    },
    (req, res) => {
      const started = process.hrtime.bigint();
      const requestId = requestIdOf(req, uuidv7);
      res.on('finish', () => {
        log.info('request', {
          method: req.method,
          path: req.url?.split('?')[0],
          status: res.statusCode,
          ms: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
          requestId,
        });
      });
      void handler(req, res, requestId);
    },
  );
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(env.PORT, env.HOST, resolve);
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;

  let closing: Promise<void> | undefined;
  const close = (graceMs = 10_000) => {
    closing ??= (async () => {
      const drained = new Promise<void>((resolve) => server.close(() => resolve()));
      // Keep-alive connections become idle as their last answer goes out: close them then,
      // instead of waiting for the clients (or keepAliveTimeout) to do it.
      server.closeIdleConnections();
      const idle = setInterval(() => server.closeIdleConnections(), 50);
      const timer = setTimeout(() => server.closeAllConnections(), graceMs);
      await drained;
      clearInterval(idle);
      clearTimeout(timer);
      if (!injected?.database) await database.close();
    })();
    return closing;
  };
  return { server, url, database, close };
}

async function main() {
  const env = loadEnv();
  const log = createLogger(env.LOG_LEVEL);
  const running = await startServer(env);
  log.info('api listening', {
    url: running.url,
    database: running.database.kind === 'embedded' ? `embedded (${env.DATA_DIR})` : 'postgresql',
    rest: `${running.url}/v1`,
    docs: `${running.url}/v1/docs`,
  });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      log.info('shutting down', { signal });
      running.close().then(
        () => process.exit(0),
        (error: unknown) => {
          log.error('shutdown failed', { error: String(error) });
          process.exit(1);
        },
      );
    });
  }
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isMain) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}
