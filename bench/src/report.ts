// The figures of a run: one row per case, the targets met or missed, the printed table and the
// JSON written to bench/results/.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import path from 'node:path';
import type { Sample } from './measure';
import { SIZES } from './seed';
import { CONNECTIONS, FIXED_RATE, log, ONLY, ROUNDS, root, SECONDS } from './settings';

export interface Row {
  name: string;
  api: Sample;
  baseline?: Sample;
  baselineLabel?: string;
  ratio?: number;
  cpuRatio?: number;
}

/** Every row, and every round's sample behind it. */
export interface Results {
  rows: Row[];
  rounds: Record<string, { api: Sample[]; baseline: Sample[] }>;
}

export function compare(name: string, api: Sample, baseline: Sample, baselineLabel: string): Row {
  return {
    name,
    api,
    baseline,
    baselineLabel,
    ratio: api.rps / baseline.rps,
    cpuRatio: api.cpuUsPerReq / Math.max(1, baseline.cpuUsPerReq),
  };
}

export interface Target {
  target: string;
  value: string;
  met: boolean;
}

const fmt = (n: number | undefined, digits = 0) => (n === undefined ? '' : n.toFixed(digits));
const ratio = (r: Row) => r.ratio!;
const p99 = (r: Row) => r.api.p99;
const rps = (r: Row) => r.api.rps;

/** The targets of the cases that ran (a case left out by BENCH_CASES has none). */
export function checkTargets(rows: Row[], poolerCases: string[], abCases: string[], rssMb: number): Target[] {
  const named = (name: string) => rows.find((r) => r.name === name);
  const byName = (prefix: string) => rows.find((r) => r.name.startsWith(prefix));
  const detail = named('GET /v1/songs/{id}');
  const search = named('GET /v1/songs?search=<word>');
  const uncached = byName('GET /v1/songs?search=<word>&page');
  const specs: Array<readonly [string, Row | undefined, (r: Row) => number, (v: number) => boolean, string]> =
    [
      ['song detail >= 0.8x baseline req/s', detail, ratio, (v) => v >= 0.8, 'x'],
      ['song detail <= 2x baseline CPU/request', detail, (r) => r.cpuRatio!, (v) => v <= 2, 'x'],
      [
        `song detail p99 < 25 ms at ${FIXED_RATE} req/s`,
        byName(`GET /v1/songs/{id} @${FIXED_RATE}`),
        p99,
        (v) => v < 25,
        ' ms',
      ],
      ['pages 1-10 >= 5x naive page+count(*)', byName('GET /v1/songs?page'), ratio, (v) => v >= 5, 'x'],
      ['search (50 words, repeated) >= 250 req/s', search, rps, (v) => v >= 250, ' req/s'],
      ['search (50 words, repeated) p99 < 300 ms', search, p99, (v) => v < 300, ' ms'],
      ['search (uncached) >= 250 req/s', uncached, rps, (v) => v >= 250, ' req/s'],
      ['search (uncached) p99 < 300 ms', uncached, p99, (v) => v < 300, ' ms'],
      ['login >= 0.8x bare argon2id', named('POST /v1/auth/login'), ratio, (v) => v >= 0.8, 'x'],
      ['reads during login p99 < 100 ms', byName('  GET /v1/songs/{id} @'), p99, (v) => v < 100, ' ms'],
      ['/trpc within 10% of /v1', byName('GET /trpc'), ratio, (v) => v >= 0.9, 'x'],
      // Checking a key costs no more than checking a session (within the machine's noise).
      [
        'API key within 5% of a session',
        byName('GET /v1/songs/{id} with an API key'),
        ratio,
        (v) => v >= 0.95,
        'x',
      ],
      ...abCases.map(
        (name) =>
          [
            `${name.slice('A/B: '.length)} within 5% of the build before`,
            named(name),
            ratio,
            (v: number) => v >= 0.95,
            'x',
          ] as const,
      ),
      ...poolerCases.map(
        (name) =>
          [
            `${name.slice('pooler: '.length)} through PgBouncer >= 0.8x direct`,
            named(name),
            ratio,
            (v: number) => v >= 0.8,
            'x',
          ] as const,
      ),
    ];
  const targets: Target[] = [];
  for (const [label, row, value, ok, unit] of specs) {
    if (!row) continue;
    const v = value(row);
    // A case that served (almost) nothing, or more than 1% errors, meets no target.
    const failed = row.api.errors + row.api.non2xx;
    const served = row.api.rps >= 1 && failed <= 0.01 * row.api.rps * SECONDS * ROUNDS;
    targets.push({ target: label, value: `${fmt(v, unit === 'x' ? 2 : 0)}${unit}`, met: served && ok(v) });
  }
  targets.push({ target: 'API RSS after the run < 200 MB', value: `${rssMb} MB`, met: rssMb < 200 });
  return targets;
}

export function printReport(rows: Row[], mem: { rssMb: number; peakMb: number }, targets: Target[]): void {
  const table: string[][] = [
    [
      'case',
      'req/s',
      'p50 ms',
      'p99 ms',
      'CPU us/req',
      'DB us/req',
      'peak RSS MB',
      'baseline req/s',
      'base p99 ms',
      'base CPU us/req',
      'base DB us/req',
      'ratio req/s',
      'ratio CPU',
      'errors',
    ],
    ...rows.map((r) => [
      r.name,
      String(r.api.rps),
      String(r.api.p50),
      String(r.api.p99),
      r.api.cpuUsPerReq ? String(r.api.cpuUsPerReq) : '',
      r.api.dbCpuUsPerReq ? String(r.api.dbCpuUsPerReq) : '',
      String(r.api.peakRssMb),
      r.baseline
        ? `${r.baseline.rps}${r.baselineLabel && r.baselineLabel !== 'baseline' ? ` (${r.baselineLabel})` : ''}`
        : '',
      r.baseline?.p99 ? String(r.baseline.p99) : '',
      r.baseline?.cpuUsPerReq ? String(r.baseline.cpuUsPerReq) : '',
      r.baseline?.dbCpuUsPerReq ? String(r.baseline.dbCpuUsPerReq) : '',
      fmt(r.ratio, 2),
      fmt(r.cpuRatio, 2),
      String(r.api.errors + r.api.non2xx + (r.baseline ? r.baseline.errors + r.baseline.non2xx : 0)),
    ]),
  ];
  const widths = table[0]!.map((_, col) => Math.max(...table.map((row) => row[col]!.length)));
  const lines = table.map((row) =>
    row
      .map((cell, col) => cell.padEnd(widths[col]!))
      .join('  ')
      .trimEnd(),
  );
  log(`\n${lines.join('\n')}`);
  log(`\nAPI memory after the run: RSS ${mem.rssMb} MB, peak ${mem.peakMb} MB`);
  log('\ntargets:');
  for (const t of targets) log(`  ${t.met ? 'met   ' : 'MISSED'}  ${t.target}: ${t.value}`);
}

/** Writes the run to bench/results/<date>.json and says where. */
export function writeReport(
  results: Results,
  extra: {
    startedAt: number;
    serverVersion: string;
    bareArgon2PerSecond: { threads: number; async: number };
    loginRoundCores: string[];
    apiMemory: { rssMb: number; peakMb: number };
    targets: Target[];
  },
): void {
  const report = {
    date: new Date().toISOString(),
    machine: {
      cpus: cpus().length,
      model: cpus()[0]?.model,
      node: process.version,
      postgres: extra.serverVersion,
    },
    settings: { seconds: SECONDS, rounds: ROUNDS, connections: CONNECTIONS, sizes: SIZES, only: ONLY },
    durationSeconds: Math.round((Date.now() - extra.startedAt) / 1000),
    cases: results.rows,
    rounds: results.rounds,
    bareArgon2PerSecond: extra.bareArgon2PerSecond,
    loginRoundCores: extra.loginRoundCores,
    apiMemory: extra.apiMemory,
    targets: extra.targets,
  };
  const outDir = path.join(root, 'bench/results');
  mkdirSync(outDir, { recursive: true });
  const file = path.join(outDir, `${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify(report, null, 2));
  log(`results: ${path.relative(root, file)} (${report.durationSeconds} s)`);
}
