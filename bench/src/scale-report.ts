// The scale bench's results: their shape (the JSON in bench/results/, which the plot reads back),
// the table printed (Markdown, for docs/performance.md), and the checks a run must pass.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { log, root } from './settings';

export type Target = 'primary' | 'replica';

export interface ScaleRow {
  songs: number;
  /** `primary`: the API on the primary alone; `replica`: the same with DATABASE_READ_URLS = the replica. */
  target: Target;
  case: string;
  /** Answers in the measured run (req/s times its seconds). */
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** The API process's CPU per request, µs (a shared machine: noisy). */
  cpuUsPerReq: number;
  /** The database backends' CPU per request, both servers, µs. */
  dbCpuUsPerReq: number;
  /** pg_stat_database's blks_hit and blks_read of the bench database over the run, per request. */
  buffers: { primary: { hit: number; read: number }; replica: { hit: number; read: number } };
  /** music_db_routed_reads_total over the run, by target (`primary`, `replica-1`). */
  routed: Record<string, number>;
}

export interface ScaleSize {
  songs: number;
  /** Seconds of each step growing the catalogue to this size. */
  seedSeconds: Record<string, number>;
  /** pg_total_relation_size of the tables read, bytes. */
  bytes: Record<string, number>;
}

export interface ScaleResults {
  startedAt: string;
  durationSeconds: number;
  serverVersion: string;
  /** PostgreSQL's shared_buffers: what fits in it is a hit, the rest a read (maybe from the OS's cache). */
  sharedBuffers: string;
  settings: { connections: number; seconds: number; warmUpSeconds: number; statsWaitSeconds: number };
  sizes: ScaleSize[];
  rows: ScaleRow[];
  /** What the run found wrong (reads that did not reach the replica, errors); empty when none. */
  problems: string[];
}

const buffers = (b: { hit: number; read: number }) => `${b.hit} / ${b.read}`;

/** Share of the run's routed reads the replica served, or `-` without routing. */
export function replicaShare(row: ScaleRow): string {
  const replica = Object.entries(row.routed)
    .filter(([target]) => target !== 'primary')
    .reduce((a, [, n]) => a + n, 0);
  const total = replica + (row.routed.primary ?? 0);
  return total === 0 ? '-' : `${Math.round((replica / total) * 100)}%`;
}

/** The results as a Markdown table, a row per size, case and target. */
export function scaleTable(rows: ScaleRow[]): string {
  const head = [
    'songs',
    'case',
    'API reads on',
    'req/s',
    'p50 ms',
    'p99 ms',
    'primary buffers hit / read per req',
    'replica buffers hit / read per req',
    'reads on replica',
    'errors, non-2xx',
  ];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => ' --- ').join('|')}|`];
  for (const r of rows) {
    const cells = [
      r.songs.toLocaleString('en'),
      r.case,
      r.target,
      String(r.rps),
      String(r.p50),
      String(r.p99),
      buffers(r.buffers.primary),
      buffers(r.buffers.replica),
      replicaShare(r),
      `${r.errors}, ${r.non2xx}`,
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

/**
 * What a run must show: every answer a success, and with the replica configured, the reads of
 * every read case served there (the writes and the writer's own reads stay on the primary).
 */
export function problemsOf(rows: ScaleRow[], writeCase: string): string[] {
  const problems: string[] = [];
  for (const r of rows) {
    const where = `${r.songs} songs, ${r.case}, ${r.target}`;
    if (r.errors + r.non2xx > 0) problems.push(`${where}: ${r.errors} errors, ${r.non2xx} non-2xx answers`);
    if (r.requests === 0) problems.push(`${where}: no answers`);
    if (r.target === 'replica' && r.case !== writeCase && !((r.routed['replica-1'] ?? 0) > 0)) {
      problems.push(`${where}: no read went to replica-1 (${JSON.stringify(r.routed)})`);
    }
  }
  return problems;
}

/** Writes the results to bench/results/scale-<date>.json; resolves to the file's path. */
export function writeScaleResults(results: ScaleResults): string {
  const dir = path.join(root, 'bench/results');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `scale-${results.startedAt.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  log(`results: ${path.relative(root, file)}`);
  return file;
}
