// `pnpm lint`: no source file, tests included, over MAX_LINES lines; past that a file is read in
// pieces rather than as a whole, and one that long usually holds more than one thing.
// Checked: what git tracks plus new files it does not ignore, so a file fails before it is added.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const MAX_LINES = 350;
const SOURCE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs|css)$/;
// Landed migrations are frozen (docs/architecture.md, "Where does my change go": never edit one that
// landed), so a long one could not be split to satisfy this check.
// Types generated from the API's OpenAPI document (examples/*/src/schema.d.ts,
// packages/sdk/src/generated/openapi.d.ts) are one file by design: regenerated whole, never edited.
const EXEMPT = [
  /^packages\/db\/src\/migrations\/\d{4}-\d{2}-\d{2}T[^/]+\.ts$/,
  /^examples\/[^/]+\/src\/schema\.d\.ts$/,
  /^packages\/sdk\/src\/generated\/openapi\.d\.ts$/,
];

const root = path.dirname(import.meta.dirname);
const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
  cwd: root,
  encoding: 'utf8',
  maxBuffer: 64 * 1024 * 1024,
})
  .split('\0')
  .filter((file) => SOURCE.test(file) && !EXEMPT.some((pattern) => pattern.test(file)));

const tooLong = [];
for (const file of new Set(files)) {
  const absolute = path.join(root, file);
  // Deleted in the working tree but still in the index.
  if (!existsSync(absolute)) continue;
  const text = readFileSync(absolute, 'utf8');
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  if (lines > MAX_LINES) tooLong.push({ file, lines });
}

if (tooLong.length > 0) {
  tooLong.sort((a, b) => b.lines - a.lines);
  for (const { file, lines } of tooLong) console.error(`${file}: ${lines} lines (at most ${MAX_LINES})`);
  console.error(`\n${tooLong.length} source file(s) over ${MAX_LINES} lines: split them into modules.`);
  process.exit(1);
}
console.log(`file sizes: ${files.length} source files, none over ${MAX_LINES} lines`);
