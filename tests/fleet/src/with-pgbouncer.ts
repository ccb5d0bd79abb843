// Runs a command (from the repository's root) with a stock transaction-mode PgBouncer in front of
// the PostgreSQL server, and the test suites pointed through it:
//   tsx src/with-pgbouncer.ts pnpm test
// TEST_DATABASE_DIRECT_URL (default postgres://postgres@127.0.0.1:5432/postgres) names the server.
// Exits with the command's status; PgBouncer and its files are gone afterwards.
import { spawn } from 'node:child_process';
import { ROOT } from './instances';
import { startPgBouncer } from './pgbouncer';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  process.stderr.write('usage: with-pgbouncer <command> [args...]\n');
  process.exit(2);
}
const direct = new URL(process.env.TEST_DATABASE_DIRECT_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
const pgbouncer = await startPgBouncer({
  serverHost: direct.hostname,
  serverPort: Number(direct.port || 5432),
  // Each test file makes a database of its own: room for a few files' pools at once.
  poolSize: 20,
  maxClients: 500,
});
process.stdout.write(`PgBouncer (transaction mode) on ${pgbouncer.url()} in front of ${direct.host}\n`);
const child = spawn(command, args, {
  cwd: ROOT,
  stdio: 'inherit',
  env: {
    ...process.env,
    TEST_DATABASE_URL: pgbouncer.url(direct.pathname.slice(1) || 'postgres'),
    TEST_DATABASE_DIRECT_URL: direct.toString(),
    TEST_DATABASE_POOLER: 'transaction',
  },
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
const code = await new Promise<number>((resolve) => child.once('exit', (c) => resolve(c ?? 1)));
await pgbouncer.destroy();
process.exit(code);
