import path from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';

/** The SDK's committed types, which the example is typed with. */
export const SCHEMA_FILE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../packages/sdk/src/generated/openapi.d.ts',
);

/** The generated text of a file of types, without the comment that heads it. */
export function typesOf(file: string): string {
  return file.replace(/^\/\*\*[\s\S]*?\*\/\s*/, '');
}

/**
 * The TypeScript types of the document the API at `apiUrl` serves, as text (no heading comment). The document is
 * fetched here (not by openapi-typescript) so a wrong address or a failing API is said plainly
 * instead of surfacing as a parser error.
 */
export async function generateTypes(apiUrl: string): Promise<string> {
  const url = `${apiUrl}/v1/openapi.json`;
  const response = await fetch(url, { signal: AbortSignal.timeout(15_000) }).catch((error: unknown) => {
    throw new Error(`could not reach ${url}: ${error instanceof Error ? error.message : String(error)}`);
  });
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}, expected 200`);
  const document: unknown = await response.json();
  if (!isOpenApi31(document)) throw new Error(`${url} is not an OpenAPI 3.1 document`);
  const ast = await openapiTS(document, { silent: true });
  return astToString(ast);
}

/** Enough of a check that openapi-typescript is handed what it expects, not a proxy's error page. */
function isOpenApi31(document: unknown): document is OpenAPI3 {
  return (
    typeof document === 'object' &&
    document !== null &&
    'openapi' in document &&
    typeof document.openapi === 'string' &&
    document.openapi.startsWith('3.1') &&
    'paths' in document
  );
}
