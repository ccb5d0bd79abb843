import type { Layer } from './transport.js';

interface Remembered {
  etag: string;
  body: ArrayBuffer;
  headers: Headers;
}

/** Headers that describe the bytes on the wire, not the representation: not kept. */
const WIRE_HEADERS = ['content-encoding', 'content-length', 'transfer-encoding'];

/**
 * What the client last read at each URL, with its `ETag`: at most `maxEntries`, the least
 * recently used forgotten first. Per client, so per caller: a representation one caller may see
 * is never answered to another.
 */
export class EtagCache {
  readonly #entries = new Map<string, Remembered>();
  readonly #max: number;

  constructor(maxEntries = 500) {
    this.#max = Math.max(1, maxEntries);
  }

  get(url: string): Remembered | undefined {
    const entry = this.#entries.get(url);
    if (entry) {
      this.#entries.delete(url);
      this.#entries.set(url, entry);
    }
    return entry;
  }

  set(url: string, entry: Remembered): void {
    this.#entries.delete(url);
    this.#entries.set(url, entry);
    while (this.#entries.size > this.#max) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
  }

  delete(url: string): void {
    this.#entries.delete(url);
  }

  clear(): void {
    this.#entries.clear();
  }

  get size(): number {
    return this.#entries.size;
  }
}

/**
 * ETag-aware reads. A GET whose URL was read before is sent with `If-None-Match: <its ETag>`;
 * a 304 is answered as the remembered 200 (its headers refreshed by the 304's: `ETag`,
 * `X-Request-Id`, `RateLimit-*`), so a caller sees the same body without it being sent again. A
 * GET the caller conditions itself (its own `If-None-Match`) is left alone, 304 included. A
 * successful write to a URL forgets what was read there.
 */
export function etagReads(cache: EtagCache): Layer {
  return (next) => async (request) => {
    const key = request.url.href;
    if (request.method !== 'GET') {
      const response = await next(request);
      if (response.ok) cache.delete(key);
      return response;
    }
    if (request.headers.has('If-None-Match')) return next(request);
    const remembered = cache.get(key);
    if (remembered) request.headers.set('If-None-Match', remembered.etag);
    const response = await next(request);
    if (response.status === 304 && remembered) {
      const headers = new Headers(remembered.headers);
      for (const [name, value] of response.headers) headers.set(name, value);
      for (const name of WIRE_HEADERS) headers.delete(name);
      return new Response(remembered.body.slice(0), { status: 200, statusText: 'OK', headers });
    }
    const etag = response.headers.get('ETag');
    if (response.status !== 200 || etag === null) {
      // Gone, or no longer tagged: forget it. A refusal (401, 403, 429, 503) says nothing of it.
      if (response.status === 404 || response.status === 410 || response.ok) cache.delete(key);
      return response;
    }
    const body = await response.arrayBuffer();
    const headers = new Headers(response.headers);
    for (const name of WIRE_HEADERS) headers.delete(name);
    cache.set(key, { etag, body, headers });
    return new Response(body.slice(0), { status: 200, statusText: response.statusText, headers });
  };
}
