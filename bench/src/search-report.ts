// The search bench's figures: markdown tables on the console, everything in
// bench/results/search-<date>.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import path from 'node:path';
import type { Sizes } from './search-catalogue';
import type { Explained } from './search-explain';
import type { ClassFigures } from './search-load';
import type { SeedFigures } from './search-seed';
import { log, root } from './settings';

export interface Target {
  target: string;
  value: string;
  met: boolean;
}

export interface SearchRun {
  database: 'postgres' | 'embedded';
  serverVersion: string;
  sizes: Sizes;
  seed: SeedFigures;
  classes: Record<string, ClassFigures>;
  targets: Target[];
  explained: Record<string, Explained[]>;
}

function markdown(header: string[], rows: string[][]): string {
  const widths = header.map((h, col) => Math.max(h.length, ...rows.map((r) => r[col]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, col) => c.padEnd(widths[col]!)).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

const megabytes = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

/** The targets, for the classes that were measured with the connections the targets name. */
export function checkTargets(classes: Record<string, ClassFigures>, searchName: string, listNames: string[]) {
  const targets: Target[] = [];
  const served = (c: ClassFigures) => c.requests > 0 && c.errors + c.non2xx <= 0.01 * c.requests;
  const search = classes[searchName];
  if (search) {
    targets.push({
      target: `${searchName} p99 <= 100 ms at ${search.connections} connections`,
      value: `${search.p99} ms`,
      met: served(search) && search.p99 <= 100,
    });
  }
  for (const name of listNames) {
    const list = classes[name];
    if (!list) continue;
    targets.push({
      target: `${name} p99 <= 300 ms`,
      value: `${list.p99} ms`,
      met: served(list) && list.p99 <= 300,
    });
  }
  return targets;
}

export function printRun(run: SearchRun): void {
  log(`\n## Search at ${run.sizes.songs.toLocaleString('en')} songs (${run.database}, ${run.serverVersion})`);
  log('\nSeeding (seconds):\n');
  log(
    markdown(
      ['step', 's'],
      Object.entries(run.seed.seedSeconds).map(([step, s]) => [step, String(s)]),
    ),
  );
  log('\nBuilding each search index once (seconds):\n');
  log(
    markdown(
      ['index', 's'],
      Object.entries(run.seed.indexBuildSeconds).map(([name, s]) => [name, s.toFixed(1)]),
    ),
  );
  log('\nIndex sizes:\n');
  log(
    markdown(
      ['index', 'MB'],
      Object.entries(run.seed.indexBytes).map(([name, bytes]) => [name, megabytes(bytes)]),
    ),
  );
  log(
    `\nTables: ${Object.entries(run.seed.tableBytes)
      .map(([name, bytes]) => `${name} ${megabytes(bytes)} MB`)
      .join(', ')}`,
  );
  log('\nLatency per request class (every query distinct):\n');
  log(
    markdown(
      ['class', 'conns', 'requests', 'req/s', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms', 'errors', 'non-2xx'],
      Object.entries(run.classes).map(([name, c]) => [
        name + (c.exhausted ? ' (ran out of distinct queries)' : ''),
        String(c.connections),
        String(c.requests),
        String(c.rps),
        String(c.p50),
        String(c.p90),
        String(c.p99),
        String(c.max),
        String(c.errors),
        String(c.non2xx),
      ]),
    ),
  );
  for (const [name, c] of Object.entries(run.classes)) {
    log(`\nSlowest 10, ${name}:\n`);
    log(
      markdown(
        ['ms', 'status', 'q'],
        c.slowest.map((t) => [String(t.ms), String(t.status), JSON.stringify(t.q)]),
      ),
    );
  }
  log('\nTargets:');
  for (const t of run.targets) log(`- ${t.met ? 'met' : '**MISSED**'}: ${t.target}: ${t.value}`);
  for (const [name, explained] of Object.entries(run.explained)) {
    log(`\nEXPLAIN (ANALYZE, BUFFERS), the 3 slowest of ${name}:`);
    for (const e of explained) {
      log(`\n### q = ${JSON.stringify(e.q)}`);
      for (const s of e.statements) {
        log(`\n${s.ms} ms: ${s.sql.slice(0, 300)}${s.sql.length > 300 ? ' ...' : ''}\n`);
        log(s.keyLines.map((l) => `    ${l}`).join('\n'));
      }
    }
  }
}

/** Writes the run to bench/results/search-<date>.json and says where. */
export function writeRun(run: SearchRun, startedAt: number): void {
  const report = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, model: cpus()[0]?.model, node: process.version },
    durationSeconds: Math.round((Date.now() - startedAt) / 1000),
    ...run,
  };
  const outDir = path.join(root, 'bench/results');
  mkdirSync(outDir, { recursive: true });
  const file = path.join(outDir, `search-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify(report, null, 2));
  log(`\nresults: ${path.relative(root, file)} (${report.durationSeconds} s)`);
}
