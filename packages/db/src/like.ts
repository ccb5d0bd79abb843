/**
 * A LIKE/ILIKE pattern matching `text` as a literal substring: `\`, `%` and `_` are escaped
 * (backslash is PostgreSQL's default LIKE escape character), so user input never acts as a
 * wildcard.
 */
export function likeContains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** A LIKE pattern matching text that starts with `text`, taken literally (as `likeContains`). */
export function likePrefix(text: string): string {
  return likeContains(text).slice(1);
}
