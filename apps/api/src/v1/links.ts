import type { IncomingMessage } from 'node:http';
import { fromTrustedProxy, type TrustProxy } from '../http/trust-proxy';

/** A list answer's paging: page mode, or cursor mode (`nextCursor`, null on the last page). */
export type ListPagination =
  | { page: number; limit: number; total: number }
  | { limit: number; nextCursor: string | null };

/**
 * Pagination links (version 1.1, RFC 8288), each a full URL that keeps the request's other query
 * parameters. Page mode: `first` and `last` always, `prev` and `next` where such a page exists
 * (a page beyond the last has a `prev`, the last page, and no `next`). Cursor mode: `first`
 * (`cursor=`) always, and `next` (the next cursor) while one follows; a cursor has no way back.
 */
export function paginationLinks(base: string, search: URLSearchParams, pagination: ListPagination): string {
  if (!('total' in pagination)) {
    const at = (cursor: string) => {
      const query = new URLSearchParams(search);
      query.set('cursor', cursor);
      return `<${base}?${query.toString()}>`;
    };
    const links = [`${at('')}; rel="first"`];
    if (pagination.nextCursor !== null) links.push(`${at(pagination.nextCursor)}; rel="next"`);
    return links.join(', ');
  }
  const { page, limit, total } = pagination;
  const last = Math.max(1, Math.ceil(total / limit));
  const at = (target: number) => {
    const query = new URLSearchParams(search);
    query.set('page', String(target));
    return `<${base}?${query.toString()}>`;
  };
  const links = [`${at(1)}; rel="first"`];
  if (page > 1) links.push(`${at(Math.min(page - 1, last))}; rel="prev"`);
  if (page < last) links.push(`${at(page + 1)}; rel="next"`);
  links.push(`${at(last)}; rel="last"`);
  return links.join(', ');
}

const HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/**
 * The origin clients reached this service at: the `Host` they sent (checked, so a made-up one
 * cannot inject into the header), and the scheme a trusted proxy reports in
 * `X-Forwarded-Proto` (TLS usually ends at the balancer), else http.
 */
export function publicOrigin(req: IncomingMessage, trust: TrustProxy): string {
  const host = req.headers.host && HOST.test(req.headers.host) ? req.headers.host : 'localhost';
  const forwarded = req.headers['x-forwarded-proto'];
  const first = typeof forwarded === 'string' ? forwarded.split(',')[0]!.trim().toLowerCase() : '';
  const proto = (first === 'http' || first === 'https') && fromTrustedProxy(req, trust) ? first : 'http';
  return `${proto}://${host}`;
}
