import type { ChildProcess } from 'node:child_process';
import { API_PORT, log } from './settings';

/** The API as the catalogue-scale benchmarks start it: production mode, budgets out of the way. */
export const API_ENV = {
  LOG_LEVEL: 'warn',
  NODE_ENV: 'production',
  JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0123456789',
  RATE_LIMIT_PER_MINUTE: '1000000',
  RATE_LIMIT_ANONYMOUS_PER_MINUTE: '1000000',
  PORT: String(API_PORT),
};

/** Stops a child (SIGINT, then SIGKILL after 10 s). */
export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGINT');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

/** On Ctrl-C or SIGTERM: `cleanup`, then exit. */
export function onSignal(cleanup: () => Promise<void>) {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      log(`${signal}: stopping and dropping the scratch data`);
      cleanup().finally(() => process.exit(130));
    });
  }
}
