// `pnpm dev`: the API (watch mode, embedded database in ./.data, demo data) and the console
// (its own server in development mode, as `next dev`) together, with their output prefixed, and
// a note on where to sign in once both answer.
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiTrustProxy } from './api-start-args.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const port = process.env.PORT ?? '4000';
const webPort = process.env.WEB_PORT ?? '3000';
const apiUrl = process.env.API_URL ?? `http://127.0.0.1:${port}`;
const env = {
  ...process.env,
  NODE_ENV: 'development',
  PORT: port,
  WEB_PORT: webPort,
  WEB_HOST: '127.0.0.1',
  API_URL: apiUrl,
  // Mailed links (password reset) open this console; without SMTP_URL the mail is in the log.
  CONSOLE_URL: process.env.CONSOLE_URL ?? `http://127.0.0.1:${webPort}`,
  DATA_DIR: path.resolve(root, process.env.DATA_DIR ?? '.data'),
  SEED_DEMO_DATA: process.env.SEED_DEMO_DATA ?? 'true',
  // Short lines for people; requests that went well only at LOG_LEVEL=debug.
  LOG_FORMAT: process.env.LOG_FORMAT ?? 'pretty',
  // Ctrl-C here means stop now: no readiness grace period as behind a load balancer.
  SHUTDOWN_DELAY_SECONDS: process.env.SHUTDOWN_DELAY_SECONDS ?? '0',
  NEXT_TELEMETRY_DISABLED: '1',
};

/** A package's own entry script, run with this node: no pnpm in between to report the exit. */
const binOf = (workspace, specifier) =>
  createRequire(path.join(root, workspace, 'package.json')).resolve(specifier);

const children = [];
let stopping = false;

function run(name, color, args, cwd, childEnv = env) {
  // Each child leads its own process group: Ctrl-C reaches this script only, which stops each
  // group once (a second signal is what made tsx print its force-kill notice).
  const child = spawn(process.execPath, args, {
    cwd: path.join(root, cwd),
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const prefix = `\x1b[${color}m${name.padEnd(4)}\x1b[0m │ `;
  for (const stream of [child.stdout, child.stderr]) {
    let buffered = '';
    stream.on('data', (chunk) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) process.stdout.write(`${prefix}${line}\n`);
    });
  }
  child.on('exit', (code, signal) => {
    if (stopping) return;
    process.stdout.write(`${prefix}stopped (${signal ?? `exit code ${code}`}); stopping the other one\n`);
    shutdown(code || 1);
  });
  children.push(child);
}

function shutdown(code) {
  if (stopping) return;
  stopping = true;
  const running = children.filter((child) => child.exitCode === null && child.signalCode === null);
  for (const child of running) {
    try {
      process.kill(-child.pid, 'SIGINT');
    } catch {
      // The group has already exited.
    }
  }
  Promise.all(running.map((child) => new Promise((resolve) => child.once('exit', resolve)))).then(() => {
    if (code === 0) process.stdout.write('\nStopped.\n');
    process.exit(code);
  });
  // Whatever still runs after 5 s is ended.
  setTimeout(() => {
    for (const child of running) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
    }
    process.exit(code);
  }, 5000).unref();
}
process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));

// The console's server is TypeScript (apps/web/console-server): bundled first, in well under a
// second, so that the console runs here as everywhere else (`next dev` alone would pass a
// browser's own X-Forwarded-For on; see console-server/forwarded.ts).
const bundled = spawnSync(process.execPath, ['build-server.mjs'], {
  cwd: path.join(root, 'apps/web'),
  stdio: 'inherit',
});
if (bundled.status !== 0) process.exit(1);

const apiTrust = apiTrustProxy(process.env.TRUST_PROXY);
run(
  'api',
  '36',
  [binOf('apps/api', 'tsx/cli'), 'watch', '--clear-screen=false', 'src/server.ts'],
  'apps/api',
  { ...env, ...(apiTrust ? { TRUST_PROXY: apiTrust } : {}) },
);
run('web', '35', ['dist/console-server.mjs', '--dev'], 'apps/web');

/** Resolves once the URL answers below 500 (the console's first answer compiles the page). */
async function answers(url) {
  while (!stopping) {
    try {
      if ((await fetch(url, { signal: AbortSignal.timeout(60_000) })).status < 500) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

await Promise.all([answers(`${apiUrl}/v1/health`), answers(`http://127.0.0.1:${webPort}/sign-in`)]);
if (!stopping) {
  process.stdout.write(`
  Ready.
  Console   http://127.0.0.1:${webPort}
  API       ${apiUrl}/v1   (reference: ${apiUrl}/v1/docs)
  Sign in   admin@example.com / admin-password      (admin)
            artist@example.com / artist-password    (artist)
            listener@example.com / listener-password (listener)
  Data      ${env.DATA_DIR} (embedded PostgreSQL; delete it to start over)
  Mail      ${env.SMTP_URL ? `sent through ${env.SMTP_URL.replace(/\/\/[^@/]*@/, '//')}` : 'printed below, as the API sends it (password reset links); set SMTP_URL to send it'}
  Stop      Ctrl-C
`);
}
