import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { apiNodeFlags } from '../../../scripts/api-start-args.mjs';

export const ROOT = path.resolve(import.meta.dirname, '../../..');
const BUNDLE = path.join(ROOT, 'apps/api/dist/server.mjs');

/**
 * The budgets the example's API runs with: large enough for the scenario's own requests
 * (about 20 per caller), small enough that spending one takes a moment.
 */
export const BUDGETS = { RATE_LIMIT_PER_MINUTE: '60', RATE_LIMIT_ANONYMOUS_PER_MINUTE: '30' };

export interface RunningApi {
  url: string;
  admin: { email: string; password: string };
  /** Everything the API printed, for a failure message. */
  output(): string;
  stop(): Promise<void>;
}

/** A port nobody listens on right now, on loopback. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('no port'))));
    });
  });
}

/**
 * The built API (`node <its start flags> apps/api/dist/server.mjs`, as `pnpm start:api` runs it)
 * on loopback, on an embedded database in `dataDir`, with a bootstrap admin and small budgets.
 * Resolves once GET /v1/health answers 200.
 */
export async function startApi(dataDir: string): Promise<RunningApi> {
  if (!existsSync(BUNDLE))
    throw new Error(`${BUNDLE} is missing: build the API first (pnpm --filter @music/api build)`);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const admin = { email: 'example-admin@example.com', password: randomBytes(18).toString('base64url') };
  const child: ChildProcess = spawn(process.execPath, [...apiNodeFlags(), BUNDLE], {
    cwd: path.dirname(BUNDLE),
    // Nothing inherited by accident (a DATABASE_URL in the caller's shell, say).
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/tmp',
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      JWT_SECRET: randomBytes(48).toString('hex'),
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
      LOG_LEVEL: 'warn',
      HOUSEKEEPING_INTERVAL_SECONDS: '0',
      ...BUDGETS,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    // SIGINT: stop at once (SIGTERM would keep serving for SHUTDOWN_DELAY_SECONDS first).
    child.kill('SIGINT');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  };

  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    const health = await fetch(`${url}/v1/health`, { signal: AbortSignal.timeout(2_000) }).catch(
      () => undefined,
    );
    if (health?.status === 200) return { url, admin, output: () => output, stop };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await stop();
  throw new Error(`the API did not answer ${url}/v1/health with 200 within 60 s:\n${output.slice(-3000)}`);
}
