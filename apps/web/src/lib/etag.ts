/**
 * A record's entity tag as the API computes it (version 1.1, packages/api-router/src/etag.ts):
 * `"` + the first 27 characters of base64url(SHA-256 of its JSON) + `"`. The JSON is the record
 * as received: tRPC's answers are plain JSON (no transformer), so parsing keeps the API's key
 * order and `JSON.stringify` gives back the text it hashed.
 *
 * Undefined where WebCrypto is missing (a page served over plain HTTP from a host that is not
 * localhost): the write then goes out without If-Match, as it did before.
 */
export async function etagOf(record: unknown): Promise<string | undefined> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return undefined;
  const digest = await subtle.digest('SHA-256', new TextEncoder().encode(JSON.stringify(record)));
  return `"${base64url(new Uint8Array(digest)).slice(0, 27)}"`;
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
