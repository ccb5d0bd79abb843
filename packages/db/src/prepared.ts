import { createHash } from 'node:crypto';

const names = new Map<string, string>();

/**
 * A stable prepared-statement name for a query text. Kysely always sends parameters
 * separately, so the set of distinct texts stays small; the cache is bounded anyway.
 */
export function statementName(text: string): string {
  let name = names.get(text);
  if (!name) {
    name = `k${createHash('sha1').update(text).digest('base64url').slice(0, 20)}`;
    if (names.size >= 5_000) names.clear();
    names.set(text, name);
  }
  return name;
}
