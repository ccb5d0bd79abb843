// `pnpm types:update` (--write) regenerates src/generated/ from the API's OpenAPI document;
// `pnpm types:check` fails when the committed files are not what it generates now.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { GENERATED, generate, staleFiles } from './generate';

if (process.argv.includes('--write')) {
  const files = await generate();
  for (const key of Object.keys(GENERATED) as Array<keyof typeof GENERATED>) {
    mkdirSync(path.dirname(GENERATED[key]), { recursive: true });
    writeFileSync(GENERATED[key], files[key]);
    console.log(`wrote ${path.relative(process.cwd(), GENERATED[key])}`);
  }
} else {
  const stale = await staleFiles();
  if (stale.length > 0) {
    console.error(`not what the API's document generates: ${stale.join(', ')}`);
    console.error('regenerate and commit them: pnpm --filter @music/sdk types:update');
    process.exit(1);
  }
  console.log('src/generated/ is up to date');
}
