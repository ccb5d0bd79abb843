import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const here = path.dirname(fileURLToPath(import.meta.url));
export const root = path.resolve(here, '../..');
export const SERVER_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
export const ONLY = (process.env.BENCH_CASES ?? '')
  .split(',')
  .map((s) => s.trim().toLowerCase())
  .filter(Boolean);
export const API_PORT = 4791;
export const BASE_PORT = 4792;
export const POOLED_PORT = 4793;
export const BEFORE_PORT = 4794;
/** Another build of the API (its `dist/server.mjs`), measured against this one in the A/B cases. */
export const COMPARE_API = process.env.BENCH_COMPARE_API;
/**
 * Settings for this build's API only (space-separated `NAME=value`), e.g. `METRICS_TOKEN=…`: with
 * BENCH_COMPARE_API naming this same build, the A/B cases measure what a setting costs.
 */
export const API_ENV: Record<string, string> = Object.fromEntries(
  (process.env.BENCH_API_ENV ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((pair) => {
      const at = pair.indexOf('=');
      if (at < 1) throw new Error(`BENCH_API_ENV: ${pair} is not NAME=value`);
      return [pair.slice(0, at), pair.slice(at + 1)];
    }),
);
export const FIXED_RATE = 1000;
export const LOGIN_CONNECTIONS = 10;
export const READS_DURING_LOGIN_RATE = 100;

export const selected = (name: string) =>
  ONLY.length === 0 || ONLY.some((s) => name.toLowerCase().includes(s));
export const log = (line: string) => process.stdout.write(`${line}\n`);
