import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiNodeFlags } from '../../../scripts/api-start-args.mjs';
import { type Child, freePort, startChild, until } from './processes';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const API_BUNDLE = path.join(ROOT, 'apps/api/dist/server.mjs');
export const WEB_DIR = path.join(ROOT, 'apps/web');

/** An instance of the built API or console: one port, stopped and started again as a deploy does. */
export interface Instance {
  name: string;
  port: number;
  url: string;
  /** The current process (a new one after each start). */
  child(): Child;
  start(overrides?: Record<string, string>): Promise<void>;
  /** Sends the signal and resolves with how the process ended. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Env for child processes: the machine's PATH and nothing else inherited by accident. */
function baseEnv(): Record<string, string> {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp' };
}

/**
 * The built API (`node <start flags> apps/api/dist/server.mjs`, as `pnpm start:api` runs it) on a
 * fixed port, with `env`; `start` resolves once its readiness check answers 200.
 */
export async function apiInstance(name: string, env: Record<string, string>): Promise<Instance> {
  const port = await freePort();
  let child: Child | undefined;
  let settings = env;
  const url = `http://127.0.0.1:${port}`;
  return {
    name,
    port,
    url,
    child: () => {
      if (!child) throw new Error(`${name} was never started`);
      return child;
    },
    async start(overrides = {}) {
      settings = { ...settings, ...overrides };
      const running = startChild(process.execPath, [...apiNodeFlags(), API_BUNDLE], {
        cwd: path.dirname(API_BUNDLE),
        env: { ...baseEnv(), ...settings, PORT: String(port), HOST: '127.0.0.1' },
      });
      child = running;
      await until(
        async () => {
          if (running.process.exitCode !== null) {
            throw new Error(`${name} exited ${running.process.exitCode}: ${running.output().slice(-2000)}`);
          }
          const res = await fetch(`${url}/v1/health`).catch(() => undefined);
          return res?.status === 200 ? true : undefined;
        },
        60_000,
        `${name} to be ready`,
      ).catch((error: unknown) => {
        throw new Error(`${String(error)}\n${running.output().slice(-2000)}`);
      });
    },
    stop: (signal = 'SIGTERM') =>
      child?.stop(signal, 30_000) ?? Promise.resolve({ code: null, signal: null }),
  };
}

/** The built console (`next start`), reaching the API at `apiUrl`. */
export async function consoleInstance(name: string, apiUrl: string): Promise<Instance> {
  const port = await freePort();
  let child: Child | undefined;
  const url = `http://127.0.0.1:${port}`;
  const nextBin = path.join(WEB_DIR, 'node_modules/next/dist/bin/next');
  return {
    name,
    port,
    url,
    child: () => {
      if (!child) throw new Error(`${name} was never started`);
      return child;
    },
    async start() {
      const running = startChild(
        process.execPath,
        [nextBin, 'start', '--hostname', '127.0.0.1', '--port', String(port)],
        {
          cwd: WEB_DIR,
          env: { ...baseEnv(), NODE_ENV: 'production', API_URL: apiUrl, NEXT_TELEMETRY_DISABLED: '1' },
        },
      );
      child = running;
      await until(
        async () => {
          if (running.process.exitCode !== null) {
            throw new Error(`${name} exited ${running.process.exitCode}: ${running.output().slice(-2000)}`);
          }
          const res = await fetch(`${url}/sign-in`).catch(() => undefined);
          return res?.status === 200 ? true : undefined;
        },
        60_000,
        `${name} to serve the sign-in page`,
      );
    },
    stop: (signal = 'SIGTERM') =>
      child?.stop(signal, 15_000) ?? Promise.resolve({ code: null, signal: null }),
  };
}
