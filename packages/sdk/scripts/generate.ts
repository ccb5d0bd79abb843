import { readFileSync } from 'node:fs';
import path from 'node:path';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { createOpenApiDocument } from '../../api-router/src/index';

const SRC = path.resolve(import.meta.dirname, '../src');

/** The generated files, each committed: what the API's document says, for the compiler and at run time. */
export const GENERATED = {
  types: path.join(SRC, 'generated/openapi.d.ts'),
  routes: path.join(SRC, 'generated/routes.ts'),
} as const;

const HEADER = `/**
 * Generated from the OpenAPI document the API serves at GET /v1/openapi.json. Do not edit:
 * regenerate with \`pnpm --filter @music/sdk types:update\`.
 */
`;

type Json = Record<string, unknown>;

/** `POST /songs` style keys of the operations that take an `Idempotency-Key` header. */
function idempotentRoutes(document: { paths?: Record<string, Record<string, Json>> }): string[] {
  const routes: string[] = [];
  for (const [template, item] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(item)) {
      const parameters = (operation.parameters ?? []) as Json[];
      const takesKey = parameters.some(
        (p) => p.$ref === '#/components/parameters/IdempotencyKey' || p.name === 'Idempotency-Key',
      );
      if (takesKey) routes.push(`${method.toUpperCase()} ${template}`);
    }
  }
  return routes.sort();
}

/** The text of each generated file, from the document the API serves (built here, not fetched). */
export async function generate(): Promise<Record<keyof typeof GENERATED, string>> {
  const document = createOpenApiDocument() as unknown as OpenAPI3;
  const types = `${HEADER}\n${astToString(await openapiTS(document, { silent: true }))}`;
  const list = idempotentRoutes(document as { paths?: Record<string, Record<string, Json>> });
  const routes = `${HEADER}
/** The operations that take an \`Idempotency-Key\`: the client sends one on each call of these. */
export const IDEMPOTENT_ROUTES: readonly string[] = [
${list.map((route) => `  '${route}',\n`).join('')}];
`;
  return { types, routes };
}

/** The generated files that are not what the document generates now (empty when current). */
export async function staleFiles(): Promise<string[]> {
  const fresh = await generate();
  const stale: string[] = [];
  for (const key of Object.keys(GENERATED) as Array<keyof typeof GENERATED>) {
    let committed = '';
    try {
      committed = readFileSync(GENERATED[key], 'utf8');
    } catch {
      // missing: stale
    }
    if (committed !== fresh[key]) stale.push(path.relative(process.cwd(), GENERATED[key]));
  }
  return stale;
}
