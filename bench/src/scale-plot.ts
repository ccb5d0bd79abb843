/**
 * The scale bench's plot: p99 latency against catalogue size, both on log scales, a line per case,
 * solid for the API on the primary alone and dashed for the API reading from the replica. A pure
 * function of the results (no dependency: SVG written by hand), so a saved run can be drawn again:
 *
 *   pnpm --filter @music/bench exec tsx src/scale-plot.ts bench/results/scale-<date>.json [out.svg]
 *
 * (default out: docs/perf/scale.svg; a relative path is taken from the current folder, else from the
 * repository's root).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ScaleResults } from './scale-report';
import { root } from './settings';

export const PLOT_FILE = 'docs/perf/scale.svg';

const WIDTH = 960;
const HEIGHT = 560;
const M = { left: 80, right: 290, top: 64, bottom: 64 };
const COLOURS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b', '#e377c2', '#17becf'];

const xml = (s: string) =>
  s.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]!);
const fixed = (n: number) => Math.round(n * 10) / 10;

/** Decades around the values: [10^floor(log min), 10^ceil(log max)], at least one decade wide. */
function decades(values: number[]): [number, number] {
  const low = Math.floor(Math.log10(Math.min(...values)));
  const high = Math.max(low + 1, Math.ceil(Math.log10(Math.max(...values))));
  return [low, high];
}

function songsLabel(n: number): string {
  if (n >= 1e6) return `${n / 1e6}M`;
  if (n >= 1e3) return `${n / 1e3}k`;
  return String(n);
}

const msLabel = (n: number) => (n >= 1 ? String(n) : n.toPrecision(1));

export function scalePlot(results: ScaleResults): string {
  const rows = results.rows.filter((r) => r.p99 > 0);
  if (rows.length === 0) throw new Error('nothing to plot: no row with a p99');
  const [xLow, xHigh] = decades(rows.map((r) => r.songs));
  const [yLow, yHigh] = decades(rows.map((r) => r.p99));
  const plotW = WIDTH - M.left - M.right;
  const plotH = HEIGHT - M.top - M.bottom;
  const x = (songs: number) => M.left + ((Math.log10(songs) - xLow) / (xHigh - xLow)) * plotW;
  const y = (ms: number) => M.top + plotH - ((Math.log10(ms) - yLow) / (yHigh - yLow)) * plotH;
  const out: string[] = [];
  const push = (s: string) => out.push(s);

  push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="12">`,
  );
  push(`<rect width="${WIDTH}" height="${HEIGHT}" fill="#fff"/>`);
  push(
    `<text x="${M.left}" y="24" font-size="16" font-weight="bold">p99 latency by catalogue size (log–log)</text>`,
  );
  const { connections, seconds } = results.settings;
  push(
    `<text x="${M.left}" y="44" fill="#555">${xml(
      `${connections} connections, closed loop, ${seconds} s a run; PostgreSQL ${results.serverVersion}, ` +
        `shared_buffers ${results.sharedBuffers}; ${results.startedAt.slice(0, 10)}`,
    )}</text>`,
  );

  // Grid and ticks: each decade labelled, 2 and 5 within it as fainter lines.
  for (let d = xLow; d <= xHigh; d++) {
    for (const m of d < xHigh ? [1, 2, 5] : [1]) {
      const v = m * 10 ** d;
      const px = fixed(x(v));
      push(
        `<line x1="${px}" y1="${M.top}" x2="${px}" y2="${M.top + plotH}" stroke="${m === 1 ? '#ccc' : '#eee'}"/>`,
      );
      if (m === 1)
        push(`<text x="${px}" y="${M.top + plotH + 18}" text-anchor="middle">${songsLabel(v)}</text>`);
    }
  }
  for (let d = yLow; d <= yHigh; d++) {
    for (const m of d < yHigh ? [1, 2, 5] : [1]) {
      const v = m * 10 ** d;
      const py = fixed(y(v));
      push(
        `<line x1="${M.left}" y1="${py}" x2="${M.left + plotW}" y2="${py}" stroke="${m === 1 ? '#ccc' : '#eee'}"/>`,
      );
      if (m === 1) push(`<text x="${M.left - 8}" y="${py + 4}" text-anchor="end">${msLabel(v)}</text>`);
    }
  }
  push(`<rect x="${M.left}" y="${M.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#888"/>`);
  push(
    `<text x="${M.left + plotW / 2}" y="${HEIGHT - 18}" text-anchor="middle">songs in the catalogue (log scale)</text>`,
  );
  push(
    `<text transform="translate(22 ${M.top + plotH / 2}) rotate(-90)" text-anchor="middle">p99 latency, ms (log scale)</text>`,
  );

  // A line per case and target, points in size order.
  const cases = [...new Set(rows.map((r) => r.case))];
  cases.forEach((name, i) => {
    const colour = COLOURS[i % COLOURS.length]!;
    for (const target of ['primary', 'replica'] as const) {
      const points = rows
        .filter((r) => r.case === name && r.target === target)
        .sort((a, b) => a.songs - b.songs)
        .map((r) => [fixed(x(r.songs)), fixed(y(r.p99))] as const);
      if (points.length === 0) continue;
      const dash = target === 'replica' ? ' stroke-dasharray="6 4"' : '';
      push(
        `<polyline points="${points.map((p) => p.join(',')).join(' ')}" fill="none" stroke="${colour}" stroke-width="2"${dash}/>`,
      );
      for (const [px, py] of points) {
        const fill = target === 'replica' ? '#fff' : colour;
        push(`<circle cx="${px}" cy="${py}" r="3.5" fill="${fill}" stroke="${colour}" stroke-width="1.5"/>`);
      }
    }
  });

  // The legend: a colour per case, then what solid and dashed mean.
  const lx = M.left + plotW + 20;
  let ly = M.top + 8;
  push(`<text x="${lx}" y="${ly}" font-weight="bold">case</text>`);
  cases.forEach((name, i) => {
    ly += 20;
    const colour = COLOURS[i % COLOURS.length]!;
    push(
      `<line x1="${lx}" y1="${ly - 4}" x2="${lx + 28}" y2="${ly - 4}" stroke="${colour}" stroke-width="3"/>`,
    );
    push(`<text x="${lx + 36}" y="${ly}">${xml(name)}</text>`);
  });
  ly += 32;
  push(`<text x="${lx}" y="${ly}" font-weight="bold">API reads on</text>`);
  for (const [label, dash, fill] of [
    ['the primary only', '', '#333'],
    ['the replica (DATABASE_READ_URLS)', ' stroke-dasharray="6 4"', '#fff'],
  ] as const) {
    ly += 20;
    push(
      `<line x1="${lx}" y1="${ly - 4}" x2="${lx + 28}" y2="${ly - 4}" stroke="#333" stroke-width="2"${dash}/>`,
    );
    push(`<circle cx="${lx + 14}" cy="${ly - 4}" r="3.5" fill="${fill}" stroke="#333" stroke-width="1.5"/>`);
    push(`<text x="${lx + 36}" y="${ly}">${label}</text>`);
  }
  push('</svg>');
  return `${out.join('\n')}\n`;
}

/** Writes the plot of `results` to `file` (relative: from the repository's root); resolves to its path. */
export function writeScalePlot(results: ScaleResults, file = PLOT_FILE): string {
  const target = path.resolve(root, file);
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, scalePlot(results));
  return target;
}

const fromHereOrRoot = (file: string) =>
  existsSync(path.resolve(file)) ? path.resolve(file) : path.resolve(root, file);

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const [input, output] = process.argv.slice(2);
  if (!input) {
    process.stderr.write('usage: tsx src/scale-plot.ts bench/results/scale-<date>.json [out.svg]\n');
    process.exit(2);
  }
  const results = JSON.parse(readFileSync(fromHereOrRoot(input), 'utf8')) as ScaleResults;
  const written = writeScalePlot(results, output ? path.resolve(output) : PLOT_FILE);
  process.stdout.write(`plot: ${path.relative(process.cwd(), written)}\n`);
}
