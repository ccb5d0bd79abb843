import { execFile, execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort, serviceDir, serviceOwner } from './processes';

/** A plain connection, typed as far as the tests use it. */
export interface SqlSession {
  query<R = Record<string, unknown>>(text: string, values?: unknown[]): Promise<{ rows: R[] }>;
  end(): Promise<void>;
}

/**
 * Connects a session from outside the API (a DBA, another service). Errors while idle (the
 * server stopping under it) are ignored instead of crashing the test run.
 */
export async function connectSession(url: string, applicationName = 'db-faults-test'): Promise<SqlSession> {
  const client = new pg.Client({ connectionString: url, application_name: applicationName });
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => {});
    throw error;
  }
  return client;
}

/**
 * A throwaway PostgreSQL server of a test file's own (initdb + pg_ctl in a temporary folder,
 * on a free port, trust auth): tests that stop, restart or lock the database cannot disturb
 * anyone else's. PostgreSQL refuses to run as root, so as root it runs as the `postgres` user.
 */
export interface PostgresInstance {
  port: number;
  /** URL of a database on this server (`postgres` by default). */
  url(database?: string): string;
  /** Creates an empty database; resolves to its URL. */
  createDatabase(name: string): Promise<string>;
  /** `pg_ctl stop`: `fast` ends sessions cleanly, `immediate` like a crash. */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  /** `pg_ctl start` again (same data, same port); resolves when it accepts connections. */
  start(): Promise<void>;
  /** Stops the server (immediate) and removes its files; never throws. */
  destroy(): Promise<void>;
}

interface Tools {
  bin: string;
  /** Who runs the tools (see serviceOwner): spread into spawn options. */
  owner: { uid: number; gid: number } | undefined;
}

/** The PostgreSQL tools, or why they cannot be used here. */
export function findPostgresTools(): Tools | { unavailable: string } {
  const candidates: string[] = [];
  try {
    candidates.push(execFileSync('pg_config', ['--bindir'], { encoding: 'utf8', stdio: 'pipe' }).trim());
  } catch {
    // pg_config is optional: fall back to Debian's versioned folders.
  }
  for (const version of ['17', '16', '15', '14', '13']) candidates.push(`/usr/lib/postgresql/${version}/bin`);
  const bin = candidates.find(
    (dir) => existsSync(path.join(dir, 'initdb')) && existsSync(path.join(dir, 'pg_ctl')),
  );
  if (!bin) return { unavailable: 'initdb/pg_ctl not found (pg_config --bindir, /usr/lib/postgresql/*/bin)' };
  let owner: Tools['owner'];
  try {
    owner = serviceOwner();
  } catch {
    return { unavailable: 'running as root and there is no `postgres` user to run PostgreSQL as' };
  }
  try {
    execFileSync(path.join(bin, 'initdb'), ['--version'], {
      stdio: 'pipe',
      cwd: tmpdir(),
      timeout: 10_000,
      ...owner,
    });
  } catch (error) {
    return { unavailable: `initdb cannot run: ${error instanceof Error ? error.message : String(error)}` };
  }
  return { bin, owner };
}

function run(tools: Tools, tool: string, args: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      path.join(tools.bin, tool),
      args,
      { cwd: tmpdir(), timeout: timeoutMs, ...tools.owner },
      (error, stdout, stderr) => {
        if (error)
          reject(
            new Error(
              `${tool} ${args.join(' ')} failed (${error.code ?? error.signal}): ${error.message}\n${stdout}${stderr}`,
            ),
          );
        else resolve(stdout);
      },
    );
  });
}

export async function startPostgres(tools: Tools): Promise<PostgresInstance> {
  const root = serviceDir('music-pg-');
  const dataDir = path.join(root, 'data');
  try {
    await run(
      tools,
      'initdb',
      ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync'],
      30_000,
    );
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
  return serveFrom(tools, root, dataDir);
}

/**
 * A streaming replica (hot standby) of `primary`, on a free port of its own: a base backup
 * taken with pg_basebackup (`-R`: it follows the primary from then on, over a replication
 * connection that initdb's trust rules allow on loopback). Read-only; `pg_wal_replay_pause()`
 * on it holds it back while the primary goes on.
 */
export async function startReplica(tools: Tools, primary: PostgresInstance): Promise<PostgresInstance> {
  const root = serviceDir('music-pg-replica-');
  const dataDir = path.join(root, 'data');
  try {
    await run(
      tools,
      'pg_basebackup',
      [
        '-d',
        `${primary.url()}?application_name=replica`,
        '-D',
        dataDir,
        '-R',
        '-X',
        'stream',
        '--checkpoint=fast',
        '--no-sync',
      ],
      60_000,
    );
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
  return serveFrom(tools, root, dataDir);
}

async function serveFrom(tools: Tools, root: string, dataDir: string): Promise<PostgresInstance> {
  const logFile = path.join(root, 'postgres.log');
  const port = await freePort();
  const url = (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`;
  const options = [
    `-p ${port}`,
    `-k ${root}`,
    '-c listen_addresses=127.0.0.1',
    // A test server: durability is not the point, speed is.
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=100',
    // A standby answers reads (ignored by a primary); its feedback keeps the primary from
    // removing rows its queries still read (fewer recovery conflicts).
    '-c hot_standby=on',
    '-c hot_standby_feedback=on',
  ].join(' ');
  let running = false;

  const start = async () => {
    await run(
      tools,
      'pg_ctl',
      ['start', '-D', dataDir, '-l', logFile, '-w', '-t', '20', '-o', options],
      25_000,
    );
    running = true;
  };
  const stop = async (mode: 'fast' | 'immediate' = 'fast') => {
    await run(tools, 'pg_ctl', ['stop', '-D', dataDir, '-m', mode, '-w', '-t', '20'], 25_000);
    running = false;
  };
  const destroy = async () => {
    if (running || existsSync(path.join(dataDir, 'postmaster.pid'))) {
      await stop('immediate').catch(() => {});
    }
    rmSync(root, { recursive: true, force: true });
  };

  try {
    await start();
  } catch (error) {
    await destroy();
    throw error;
  }

  return {
    port,
    url,
    async createDatabase(name) {
      const admin = await connectSession(url());
      try {
        await admin.query(`create database "${name}"`);
      } finally {
        await admin.end();
      }
      return url(name);
    },
    stop,
    start,
    destroy,
  };
}
