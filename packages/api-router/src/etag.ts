import { hash } from 'node:crypto';

/**
 * Strong entity tags. A representation's tag is a hash of its JSON as the API answers it (the
 * output schema's serialization, before any compression), so it changes with anything in it (a
 * song's artistIds, a playlist's songs and their order) and costs no query: the REST edge hashes
 * the body it is about to send (`etagOfJson`), and the services compute the current one under
 * the row lock for `If-Match` by serializing the record through the same output schema
 * (kernel.ts, `assertPrecondition`), so the key order is the schema's on both sides.
 */
export function etagOf(representation: unknown): string {
  return etagOfJson(JSON.stringify(representation));
}

/** The tag of an answer's JSON body, as sent. */
export function etagOfJson(json: string): string {
  return `"${hash('sha256', json, 'base64url').slice(0, 27)}"`;
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
