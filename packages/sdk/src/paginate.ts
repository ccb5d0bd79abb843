import { MusicApiError } from './errors.js';
import type { paths } from './generated/openapi.js';
import type { Outgoing, Send } from './transport.js';

type GetOf<P extends keyof paths> = paths[P] extends { get: infer O } ? O : never;
type JsonOf<O> = O extends { responses: { 200: { content: { 'application/json': infer J } } } } ? J : never;

/**
 * The paths whose GET answers a list (`{ data: [...], ... }`): `/songs`, `/artists/{artistId}/songs`...
 * Not the change feed: it never ends (read it with `changes`).
 */
export type ListPath = Exclude<
  {
    [P in keyof paths]: JsonOf<GetOf<P>> extends { data: readonly unknown[] } ? P : never;
  }[keyof paths],
  '/events'
>;

/** One item of a list: `ItemOf<'/songs'>` is a `Song`. */
export type ItemOf<P extends ListPath> =
  JsonOf<GetOf<P>> extends { data: ReadonlyArray<infer I> } ? I : never;

/** The path and query parameters of a list, as the document types them. */
export type ListParams<P extends ListPath> =
  GetOf<P> extends { parameters: infer X }
    ? { [K in keyof X as K extends 'path' | 'query' ? K : never]: X[K] }
    : never;

/** A `Link` header (RFC 8288) as relation -> URL, resolved against `base`. */
export function parseLinks(header: string | null, base: URL): Map<string, URL> {
  const links = new Map<string, URL>();
  for (const match of (header ?? '').matchAll(/<([^>]*)>((?:\s*;\s*[^;,]+)*)/g)) {
    const [, target = '', params = ''] = match;
    const rel = /;\s*rel\s*=\s*"?([^";]+)"?/i.exec(params)?.[1];
    for (const name of rel?.trim().split(/\s+/) ?? []) links.set(name.toLowerCase(), new URL(target, base));
  }
  return links;
}

type Scalar = string | number | boolean;

/** The first page's URL: path parameters filled in, the query as openapi-fetch sends it (arrays repeated). */
export function listUrl(
  base: URL,
  template: string,
  params: { path?: Record<string, Scalar>; query?: Record<string, Scalar | Scalar[] | undefined> } = {},
): URL {
  const path = template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params.path?.[name];
    if (value === undefined) throw new TypeError(`${template}: the path parameter ${name} is missing`);
    return encodeURIComponent(String(value));
  });
  const url = new URL(`${base.href.replace(/\/+$/, '')}${path}`);
  for (const [name, value] of Object.entries(params.query ?? {})) {
    for (const one of Array.isArray(value) ? value : [value]) {
      if (one !== undefined) url.searchParams.append(name, String(one));
    }
  }
  return url;
}

/**
 * `url` on the origin the client was given. The API builds its links from the address it was
 * reached at, which behind a proxy may not be the client's: the token goes only where the
 * client was told to send it.
 */
function onOrigin(url: URL, base: URL): URL {
  return url.origin === base.origin ? url : new URL(`${url.pathname}${url.search}`, base.origin);
}

interface Page {
  data: unknown[];
  nextCursor?: unknown;
  pagination?: unknown;
}

/**
 * Where a page names the next one by cursor: `nextCursor` at the top (the audit trail) or in
 * `pagination` (every list read with `cursor`). Undefined when it names none that way (page mode).
 */
function cursorOf(body: Page): { next: unknown } | undefined {
  if ('nextCursor' in body) return { next: body.nextCursor };
  const { pagination } = body;
  if (typeof pagination === 'object' && pagination !== null && 'nextCursor' in pagination) {
    return { next: pagination.nextCursor };
  }
  return undefined;
}

function isPage(body: unknown): body is Page {
  return typeof body === 'object' && body !== null && 'data' in body && Array.isArray(body.data);
}

/**
 * Every item of a list, page after page, fetched as they are needed. The next page is the one
 * the API names: the `nextCursor` of the answer (at the top, or in `pagination`) when it has that
 * field (null on the last page: the end), else the `Link` header's `rel="next"` (none on the last page). A page
 * that is not a 200 list throws a MusicApiError.
 */
export async function* pages(send: Send, first: URL, signal?: AbortSignal): AsyncGenerator<unknown[]> {
  let url: URL | undefined = first;
  const seen = new Set<string>();
  while (url !== undefined) {
    if (seen.has(url.href)) return; // an API naming a page twice: stop rather than loop
    seen.add(url.href);
    const request: Outgoing = {
      url,
      method: 'GET',
      headers: new Headers({ Accept: 'application/json' }),
      body: undefined,
      signal,
    };
    const response = await send(request);
    if (response.status !== 200) throw await MusicApiError.of(response);
    const body: unknown = await response.json();
    if (!isPage(body)) throw new MusicApiError(response.status, body, response.headers.get('X-Request-Id'));
    yield body.data;
    const paged = cursorOf(body);
    if (paged) {
      const cursor = paged.next;
      if (typeof cursor !== 'string' || cursor === '') return;
      url = new URL(url);
      url.searchParams.set('cursor', cursor);
      url.searchParams.delete('page');
    } else {
      const next = parseLinks(response.headers.get('Link'), url).get('next');
      url = next && onOrigin(next, first);
    }
  }
}

/**
 * A list answer's paging as page mode has it (`page`, `limit`, `total`): what every list answers
 * to a request without `cursor`. The document describes `pagination` as one of two shapes (page
 * mode, or cursor mode's `{limit, nextCursor}` without a total); this narrows it for a request
 * that sent no `cursor`, and throws if the answer is in cursor mode after all.
 */
export function pageMode<P extends { limit: number }>(pagination: P): Extract<P, { total: number }> {
  if (!('total' in pagination)) throw new Error('A page-mode answer was expected: the request sent a cursor');
  return pagination as Extract<P, { total: number }>;
}
