// `pnpm dev`: the API (watch mode, embedded database in ./.data, demo data) and the console
// (next dev) together, with their output prefixed, and a note on where to sign in.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const port = process.env.PORT ?? '4000';
const webPort = process.env.WEB_PORT ?? '3000';
const apiUrl = process.env.API_URL ?? `http://127.0.0.1:${port}`;
const env = {
  ...process.env,
  NODE_ENV: 'development',
  PORT: port,
  WEB_PORT: webPort,
  API_URL: apiUrl,
  DATA_DIR: path.resolve(root, process.env.DATA_DIR ?? '.data'),
  SEED_DEMO_DATA: process.env.SEED_DEMO_DATA ?? 'true',
};

const children = [];
function run(name, color, command, args, cwd) {
  const child = spawn(command, args, { cwd: path.join(root, cwd), env, stdio: ['ignore', 'pipe', 'pipe'] });
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
  child.on('exit', (code) => {
    process.stdout.write(`${prefix}exited (${code})\n`);
    shutdown(code ?? 1);
  });
  children.push(child);
}

let stopping = false;
function shutdown(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 1500).unref();
}
process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));

run('api', '36', 'pnpm', ['exec', 'tsx', 'watch', '--clear-screen=false', 'src/server.ts'], 'apps/api');
run('web', '35', 'pnpm', ['run', 'dev'], 'apps/web');

setTimeout(() => {
  process.stdout.write(`
  Console   http://127.0.0.1:${webPort}
  API       ${apiUrl}/v1   (reference: ${apiUrl}/v1/docs)
  Sign in   admin@example.com / admin-password      (admin)
            artist@example.com / artist-password    (artist)
            listener@example.com / listener-password (listener)
  Data      ${env.DATA_DIR} (embedded PostgreSQL; delete it to start over)
`);
}, 4000).unref();
