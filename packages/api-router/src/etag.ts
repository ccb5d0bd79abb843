import { hash } from 'node:crypto';

/**
 * Strong entity tags. A representation's tag is a hash of its JSON with the keys sorted, so it
 * changes with anything in it (a song's artistIds, a playlist's songs and their order) and not
 * with key order, and it costs no query: it is computed from the answer itself. The services
 * compute the current one under the row lock for `If-Match` (kernel.ts, `assertPrecondition`).
 */
export function etagOf(representation: unknown): string {
  return `"${hash('sha256', canonicalJson(representation), 'base64url').slice(0, 27)}"`;
}

/** JSON with every object's keys sorted (undefined members left out, as JSON.stringify does). */
function canonicalJson(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + canonicalJson(value[i]);
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  let out = '{';
  for (const key of Object.keys(record).sort()) {
    const member = record[key];
    if (member === undefined) continue;
    out += `${out.length === 1 ? '' : ','}${JSON.stringify(key)}:${canonicalJson(member)}`;
  }
  return `${out}}`;
}

/** A parsed `If-Match` / `If-None-Match`: any current representation, or one of these tags. */
export type EntityTagCondition = '*' | readonly string[];

// RFC 9110 8.8.3: entity-tag = [ "W/" ] DQUOTE *etagc DQUOTE, in a comma-separated list.
const LIST = /^\s*(?:W\/)?"[\x21\x23-\x7e\x80-\xff]*"\s*(?:,\s*(?:W\/)?"[\x21\x23-\x7e\x80-\xff]*"\s*)*$/;

/**
 * The header's value as a condition, or `null` when it is malformed (the caller answers 400).
 * Weak tags are kept with their `W/`: they never match a strong comparison (If-Match), and
 * If-None-Match compares weakly (the edge strips `W/` there).
 */
export function parseEntityTags(header: string): EntityTagCondition | null {
  if (header.trim() === '*') return '*';
  if (!LIST.test(header)) return null;
  return header.match(/(?:W\/)?"[^"]*"/g) ?? [];
}

/** Strong comparison (If-Match): a weak tag matches nothing. */
export function matchesStrongly(condition: EntityTagCondition, etag: string): boolean {
  return condition === '*' || condition.includes(etag);
}

/** Weak comparison (If-None-Match): `W/"x"` and `"x"` are the same tag. */
export function matchesWeakly(condition: EntityTagCondition, etag: string): boolean {
  return condition === '*' || condition.some((tag) => (tag.startsWith('W/') ? tag.slice(2) : tag) === etag);
}
