import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The API's TRUST_PROXY when the console runs beside it on this machine (`pnpm dev`, `pnpm
 * start`): the value given, with `loopback` added. Both processes get one environment, and the
 * TRUST_PROXY set there names the proxies in front of the console (its own setting); the API must
 * still believe the console, or every browser would share the console's address in its limits.
 */
export function apiTrustProxy(value) {
  if (value === undefined || value.trim() === '') return undefined;
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '' && entry !== 'none');
  return [...new Set([...entries, 'loopback'])].join(',');
}

/**
 * The node flags of the API's own start script (`node <flags> dist/server.mjs` in
 * apps/api/package.json, today its heap budget): every launcher that spawns the built API itself
 * (`pnpm start`, the benchmark) runs it with these, so it runs as `pnpm start:api` does.
 */
export function apiNodeFlags() {
  const script = JSON.parse(readFileSync(path.join(root, 'apps/api/package.json'), 'utf8')).scripts.start;
  const [command, ...args] = script.split(/\s+/);
  if (command !== 'node' || args.at(-1) !== 'dist/server.mjs') {
    throw new Error(`apps/api's start script is not \`node [flags] dist/server.mjs\`: ${script}`);
  }
  return args.slice(0, -1);
}
