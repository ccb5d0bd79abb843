// Writes the OpenAPI document the API serves at /v1/openapi.json to a file (for Spectral).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createOpenApiDocument } from '@music/api-router';

const out = process.argv[2] ?? 'dist/openapi.json';
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(createOpenApiDocument(), null, 2)}\n`);
