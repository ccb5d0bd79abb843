// `pnpm start`: the built API and the built console together (run `pnpm build` first).
// No demo data; configure with the variables listed in the README.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const port = process.env.PORT ?? '4000';
const env = {
  NODE_ENV: 'production',
  ...process.env,
  PORT: port,
  WEB_PORT: process.env.WEB_PORT ?? '3000',
  API_URL: process.env.API_URL ?? `http://127.0.0.1:${port}`,
};

const children = [
  spawn('node', ['dist/server.mjs'], { cwd: path.join(root, 'apps/api'), env, stdio: 'inherit' }),
  spawn('pnpm', ['run', 'start'], { cwd: path.join(root, 'apps/web'), env, stdio: 'inherit' }),
];
let stopping = false;
function shutdown(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 12_000).unref();
  Promise.all(children.map((c) => new Promise((r) => (c.exitCode === null ? c.on('exit', r) : r())))).then(
    () => process.exit(code),
  );
}
for (const child of children) child.on('exit', (code) => shutdown(code ?? 1));
process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));
