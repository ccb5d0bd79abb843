import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiNodeFlags } from '../../../scripts/api-start-args.mjs';
import { type Child, freePort, startChild, until } from './processes';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const API_BUNDLE = path.join(ROOT, 'apps/api/dist/server.mjs');
export const WEB_DIR = path.join(ROOT, 'apps/web');
const CONSOLE_SERVER = path.join(WEB_DIR, 'dist/console-server.mjs');

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
 * A process on a port of its own, started again and again (a deploy restarts it): `launch`
 * spawns it with the settings of the moment, and a start resolves once `readyPath` answers 200.
 */
async function instance(
  name: string,
  readyPath: string,
  launch: (port: number, overrides: Record<string, string>) => Child,
  stopWaitMs: number,
): Promise<Instance> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let child: Child | undefined;
  return {
    name,
    port,
    url,
    child: () => {
      if (!child) throw new Error(`${name} was never started`);
      return child;
    },
    async start(overrides = {}) {
      const running = launch(port, overrides);
      child = running;
      await until(
        async () => {
          if (running.process.exitCode !== null)
            throw new Error(`${name} exited ${running.process.exitCode}`);
          const res = await fetch(`${url}${readyPath}`).catch(() => undefined);
          return res?.status === 200 ? true : undefined;
        },
        60_000,
        `${name} to answer ${readyPath}`,
      ).catch((error: unknown) => {
        throw new Error(`${String(error)}\n${running.output().slice(-2000)}`);
      });
    },
    stop: (signal = 'SIGTERM') =>
      child?.stop(signal, stopWaitMs) ?? Promise.resolve({ code: null, signal: null }),
  };
}

/**
 * The built API (`node <start flags> apps/api/dist/server.mjs`, as `pnpm start:api` runs it) with
 * `env`; each start may override some of it, and the overrides stay for later starts.
 */
export function apiInstance(name: string, env: Record<string, string>): Promise<Instance> {
  let settings = env;
  return instance(
    name,
    '/v1/health',
    (port, overrides) => {
      settings = { ...settings, ...overrides };
      return startChild(process.execPath, [...apiNodeFlags(), API_BUNDLE], {
        cwd: path.dirname(API_BUNDLE),
        env: { ...baseEnv(), ...settings, PORT: String(port), HOST: '127.0.0.1' },
      });
    },
    30_000,
  );
}

/**
 * The built console (`node dist/console-server.mjs`, as `pnpm start` runs it), reaching the API at
 * `apiUrl`. HAProxy on this machine stands in front of the consoles and appends X-Forwarded-For,
 * so they trust loopback, as consoles behind a balancer trust it.
 */
export function consoleInstance(name: string, apiUrl: string): Promise<Instance> {
  return instance(
    name,
    '/sign-in',
    (port) =>
      startChild(process.execPath, [CONSOLE_SERVER], {
        cwd: WEB_DIR,
        env: {
          ...baseEnv(),
          API_URL: apiUrl,
          WEB_HOST: '127.0.0.1',
          WEB_PORT: String(port),
          TRUST_PROXY: 'loopback',
          NEXT_TELEMETRY_DISABLED: '1',
        },
      }),
    15_000,
  );
}
