import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { type Child, findTool, freePort, serviceDir, serviceOwner, startChild, until } from './processes';

export interface PgBouncerOptions {
  /** The PostgreSQL server behind it. */
  serverHost?: string;
  serverPort?: number;
  /** Server connections per database and user (`default_pool_size`). */
  poolSize?: number;
  /** Client connections it accepts (`max_client_conn`). */
  maxClients?: number;
}

export interface PgBouncer {
  port: number;
  /** The running process's pid (for CPU accounting), undefined while stopped. */
  readonly pid: number | undefined;
  /** A URL of `database` through the pooler (user postgres, trust). */
  url(database?: string): string;
  /** Runs a command on PgBouncer's admin console (`PAUSE`, `RESUME`, `SHOW POOLS`, ...). */
  admin(command: string): Promise<Array<Record<string, unknown>>>;
  /** Stops the process (immediate shutdown: every client connection dropped). */
  stop(): Promise<void>;
  /** Starts it again on the same port with the same settings. */
  start(): Promise<void>;
  /** Stops it and removes its files. */
  destroy(): Promise<void>;
}

/**
 * A stock PgBouncer in transaction mode, as production runs one: `pool_mode = transaction` and
 * nothing else bent to suit the API (no `ignore_startup_parameters`, no prepared-statement
 * support). Every database name is routed to the server (`* =`), so test suites can create
 * databases of their own and reach them through it. Listens on 127.0.0.1 only, on a free port.
 * PgBouncer refuses to run as root: as root it runs as `postgres`.
 */
export async function startPgBouncer(options: PgBouncerOptions = {}): Promise<PgBouncer> {
  const binary = findTool('pgbouncer', ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer']);
  const dir = serviceDir('music-pgbouncer-');
  const port = await freePort();
  const config = path.join(dir, 'pgbouncer.ini');
  writeFileSync(path.join(dir, 'userlist.txt'), '"postgres" ""\n');
  writeFileSync(
    config,
    [
      '[databases]',
      `* = host=${options.serverHost ?? '127.0.0.1'} port=${options.serverPort ?? 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${path.join(dir, 'userlist.txt')}`,
      'admin_users = postgres',
      'pool_mode = transaction',
      `default_pool_size = ${options.poolSize ?? 20}`,
      `max_client_conn = ${options.maxClients ?? 500}`,
      'log_connections = 0',
      'log_disconnections = 0',
      '',
    ].join('\n'),
  );
  const url = (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`;
  let child: Child | undefined;

  async function start(): Promise<void> {
    // As the service user, spawned directly, so signals reach PgBouncer itself.
    child = startChild(binary, [config], { ...serviceOwner(), cwd: dir });
    const running = child;
    await until(
      async () => {
        if (running.process.exitCode !== null) {
          throw new Error(`pgbouncer exited (${running.process.exitCode}): ${running.output()}`);
        }
        const client = new pg.Client({ connectionString: url('pgbouncer') });
        client.on('error', () => {});
        try {
          await client.connect();
          // The admin console answers only simple queries.
          await client.query('SHOW VERSION');
          return true;
        } catch {
          return undefined;
        } finally {
          await client.end().catch(() => {});
        }
      },
      15_000,
      'pgbouncer to accept connections',
    );
  }

  async function stop(): Promise<void> {
    // SIGTERM is PgBouncer's immediate shutdown (SIGINT pauses and waits for transactions).
    await child?.stop('SIGTERM', 5_000);
    child = undefined;
  }

  await start();
  return {
    port,
    get pid() {
      return child?.process.pid;
    },
    url,
    async admin(command) {
      const client = new pg.Client({ connectionString: url('pgbouncer') });
      client.on('error', () => {});
      await client.connect();
      try {
        const result = await client.query(command);
        return result.rows;
      } finally {
        await client.end().catch(() => {});
      }
    },
    stop,
    start,
    async destroy() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
