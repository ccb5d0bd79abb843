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

/**
 * The least string above every string that starts with `text`, in code point order (the "C"
 * collation's order, which the folded keys use): its last code point moved on by one (past the
 * surrogates, which UTF-8 cannot hold), after dropping any trailing U+10FFFF; undefined when
 * nothing is left (every string of that start is then at or above `text`).
 */
export function prefixEnd(text: string): string | undefined {
  const points = Array.from(text, (c) => c.codePointAt(0)!);
  while (points.length > 0 && points.at(-1) === 0x10ffff) points.pop();
  if (points.length === 0) return undefined;
  const last = points.pop()! + 1;
  return String.fromCodePoint(...points, last === 0xd800 ? 0xe000 : last);
}
