// `pnpm example`: starts the built API on loopback (embedded database in a temporary folder,
// small request budgets), then checks, each in turn and all of them whatever fails first:
//   1. the SDK's committed types (packages/sdk/src/generated/openapi.d.ts) are what the running
//      API's document generates (drift);
//   2. the example typechecks (strict) against them;
//   3. the scenario passes against the API.
// Then it stops the API and removes the folder.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type RunningApi, startApi } from './api';
import { generateTypes, SCHEMA_FILE, typesOf } from './types';

const PACKAGE_DIR = path.resolve(import.meta.dirname, '..');
/** The whole run, API start-up included, is bounded by this. */
const RUN_TIMEOUT_MS = 300_000;

/** Runs a command to its end (killed after `ms`), its output passed through; resolves with its exit code. */
function runCommand(args: string[], env: NodeJS.ProcessEnv, ms: number): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: PACKAGE_DIR, env, stdio: 'inherit' });
    const timer = setTimeout(() => {
      console.error(`timed out after ${ms / 1000} s: node ${args.join(' ')}`);
      child.kill('SIGKILL');
    }, ms);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code ?? 1);
    });
  });
}

/** Where the committed types and the generated ones first differ, as a few lines of each. */
function firstDifference(committed: string, generated: string): string {
  const a = committed.split('\n');
  const b = generated.split('\n');
  let line = 0;
  while (line < Math.max(a.length, b.length) && a[line] === b[line]) line++;
  const show = (lines: string[]) =>
    lines
      .slice(line, line + 5)
      .map((l) => `    ${l}`)
      .join('\n') || '    (end of file)';
  return `first difference at line ${line + 1}\n  committed:\n${show(a)}\n  generated:\n${show(b)}`;
}

async function checks(api: RunningApi): Promise<string[]> {
  const failed: string[] = [];
  const generated = await generateTypes(api.url);
  console.log("\n==> the SDK's committed types match the API document");
  const committed = typesOf(readFileSync(SCHEMA_FILE, 'utf8'));
  if (committed === generated) console.log('packages/sdk/src/generated/openapi.d.ts is up to date');
  else {
    failed.push('types');
    console.log(
      `packages/sdk/src/generated/openapi.d.ts is not what the API's document generates: ${firstDifference(committed, generated)}`,
    );
    console.log('regenerate and commit it: pnpm --filter @music/sdk types:update');
  }

  console.log("\n==> typecheck (strict) against the SDK's types");
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  if ((await runCommand([tsc, '-p', PACKAGE_DIR], process.env, 120_000)) === 0) console.log('no type errors');
  else failed.push('typecheck');

  console.log('\n==> the scenario');
  const env = {
    ...process.env,
    API_URL: api.url,
    ADMIN_EMAIL: api.admin.email,
    ADMIN_PASSWORD: api.admin.password,
  };
  if ((await runCommand(['--import', 'tsx', 'src/scenario.ts'], env, 120_000)) !== 0) failed.push('scenario');
  return failed;
}

async function main(): Promise<number> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'music-rest-client-'));
  let api: RunningApi | undefined;
  const cleanUp = async () => {
    await api?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  const timer = setTimeout(() => {
    console.error(`rest-client example: timed out after ${RUN_TIMEOUT_MS / 1000} s`);
    void cleanUp().finally(() => process.exit(1));
  }, RUN_TIMEOUT_MS);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void cleanUp().finally(() => process.exit(1)));
  }
  try {
    api = await startApi(dataDir);
    console.log(`API started at ${api.url} (embedded database in ${dataDir})`);
    const failed = await checks(api);
    if (failed.length > 0) {
      console.error(`\nrest-client example failed: ${failed.join(', ')}`);
      const logs = api.output().trim();
      if (logs) console.error(`the API's last output:\n${logs.slice(-3000)}`);
      return 1;
    }
    console.log('\nrest-client example passed');
    return 0;
  } catch (error) {
    console.error(`rest-client example: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    clearTimeout(timer);
    await cleanUp();
  }
}

process.exit(await main());
