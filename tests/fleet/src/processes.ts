import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A port nobody listens on right now, on loopback. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls until `probe` gives a value (not undefined), or fails naming what it waited for. */
export async function until<T>(probe: () => Promise<T | undefined>, ms: number, what: string): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${ms} ms waiting for ${what}${last ? ` (last: ${String(last)})` : ''}`,
      );
    }
    await sleep(100);
  }
}

/**
 * Some daemons refuse to run as root (PgBouncer, PostgreSQL): as root they run as `postgres`,
 * in a folder that user owns. Elsewhere they run as whoever runs the tests.
 */
const asRoot = process.getuid?.() === 0;
let owner: { uid: number; gid: number } | undefined;
/** The user daemons run as: `postgres` when we are root (throws if there is none), else ourselves. */
export function serviceOwner(): { uid: number; gid: number } | undefined {
  if (!asRoot) return undefined;
  if (!owner) {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    owner = { uid: id('-u'), gid: id('-g') };
  }
  return owner;
}

/** A temporary folder the service user can write to. */
export function serviceDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  const user = serviceOwner();
  if (user) chownSync(dir, user.uid, user.gid);
  return dir;
}

/** The first of `candidates` that exists, or what to install. */
export function findTool(name: string, candidates: string[]): string {
  const found = candidates.find((candidate) => existsSync(candidate));
  if (!found)
    throw new Error(`${name} not found (${candidates.join(', ')}): install Debian's ${name} package`);
  return found;
}

/** A child process whose output is kept (for the failure message) and who is stopped at the end. */
export interface Child {
  process: ChildProcess;
  /** Everything it wrote, stdout and stderr interleaved. */
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends the signal and waits for the exit (SIGKILL after `ms`). */
  stop(signal?: NodeJS.Signals, ms?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function startChild(
  file: string,
  args: string[],
  options: { cwd?: string; env?: Record<string, string | undefined>; uid?: number; gid?: number } = {},
): Child {
  const child = spawn(file, args, {
    cwd: options.cwd,
    env: options.env as NodeJS.ProcessEnv | undefined,
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.uid === undefined ? {} : { uid: options.uid, gid: options.gid }),
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    if (output.length > 200_000) output = output.slice(-100_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    process: child,
    output: () => output,
    exited,
    async stop(signal = 'SIGTERM', ms = 20_000) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill(signal);
        const timer = setTimeout(() => child.kill('SIGKILL'), ms);
        const result = await exited;
        clearTimeout(timer);
        return result;
      }
      return exited;
    },
  };
}

/** Resources to release at the end, last acquired first, whatever failed in between. */
export class Cleanup {
  readonly #steps: Array<() => Promise<unknown> | unknown> = [];
  add(step: () => Promise<unknown> | unknown): void {
    this.#steps.push(step);
  }
  async run(): Promise<void> {
    for (const step of this.#steps.splice(0).reverse()) {
      try {
        await step();
      } catch (error) {
        process.stderr.write(`cleanup step failed: ${String(error)}\n`);
      }
    }
  }
}
