// `pnpm generate`: rewrites src/schema.d.ts from the document the API at API_URL serves.
import { writeFileSync } from 'node:fs';
import { apiUrlFromEnv } from '../src/client';
import { generateTypes, SCHEMA_FILE } from './types';

const apiUrl = apiUrlFromEnv();
try {
  writeFileSync(SCHEMA_FILE, await generateTypes(apiUrl));
  console.log(`wrote ${SCHEMA_FILE} from ${apiUrl}/v1/openapi.json`);
} catch (error) {
  console.error(`generate: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
