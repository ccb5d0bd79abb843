// `pnpm start`: the built API and the built console together (run `pnpm build` first).
// No demo data; configure with the variables listed in the README.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiNodeFlags, apiTrustProxy } from './api-start-args.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const port = process.env.PORT ?? '4000';
const env = {
  NODE_ENV: 'production',
  ...process.env,
  PORT: port,
  WEB_PORT: process.env.WEB_PORT ?? '3000',
  API_URL: process.env.API_URL ?? `http://127.0.0.1:${port}`,
  // Where mailed links point; set it to the console's public address in production.
  CONSOLE_URL: process.env.CONSOLE_URL ?? `http://127.0.0.1:${process.env.WEB_PORT ?? '3000'}`,
};

// Each child is node itself (no pnpm in between: pnpm does not pass SIGTERM on, and a server two
// processes down was left running, holding its port), with its package's start script's
// arguments, and leads a process group of its own, stopped as a group. Ctrl-C reaches this
// process only; it stops both.
const spawnGroup = (args, cwd, childEnv = env) =>
  spawn('node', args, { cwd: path.join(root, cwd), env: childEnv, stdio: 'inherit', detached: true });
const apiTrust = apiTrustProxy(process.env.TRUST_PROXY);
const children = [
  spawnGroup([...apiNodeFlags(), 'dist/server.mjs'], 'apps/api', {
    ...env,
    ...(apiTrust ? { TRUST_PROXY: apiTrust } : {}),
  }),
  spawnGroup(['dist/console-server.mjs'], 'apps/web'),
];
let stopping = false;
// The signal is passed on as it came: SIGTERM (a supervisor) lets the API answer readiness with
// 503 for SHUTDOWN_DELAY_SECONDS before it drains; Ctrl-C (SIGINT) stops at once.
function shutdown(code, signal = 'SIGTERM') {
  if (stopping) return;
  stopping = true;
  for (const child of children) {
    try {
      process.kill(-child.pid, signal);
    } catch {
      // The group has already exited.
    }
  }
  // The API's own bound: the shutdown delay, then up to 10 s of draining.
  setTimeout(() => process.exit(code), 20_000 + Number(env.SHUTDOWN_DELAY_SECONDS ?? 5) * 1000).unref();
  Promise.all(children.map((c) => new Promise((r) => (c.exitCode === null ? c.on('exit', r) : r())))).then(
    () => process.exit(code),
  );
}
for (const child of children) child.on('exit', (code) => shutdown(code ?? 1));
process.on('SIGINT', () => shutdown(0, 'SIGINT'));
process.on('SIGTERM', () => shutdown(0, 'SIGTERM'));
