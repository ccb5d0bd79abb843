import { operationAt } from '@music/api-router';
import { candidatesFor, compile, routeIndex } from '../v1/rest-routes';

/** What a request was for, as a trace names it; either may be unknown (a 404, a service route). */
export interface RequestOperation {
  /** The route template: `/v1/songs/{id}`, `/trpc/songs.get`. */
  route: string | undefined;
  /** The procedure: `songs.get`. */
  operation: string | undefined;
}

const UNKNOWN: RequestOperation = { route: undefined, operation: undefined };

/**
 * Names a request by its method and path with the same table `/v1` routes by (rest-routes.ts)
 * and the procedure names `/trpc` serves. Worked out again here, once per request and only when
 * tracing is on, rather than handed out by the transports: they stay as they are, and a request
 * they refuse early (a malformed path, a 405) is still named by its path.
 */
export function requestNamer(): (method: string, target: string) => RequestOperation {
  const index = routeIndex(compile());
  return (method, target) => {
    let parts: string[];
    try {
      parts = (target.split('?')[0] ?? '').split('/').slice(1).map(decodeURIComponent);
    } catch {
      return UNKNOWN;
    }
    if (parts.at(-1) === '' && parts.length > 1) parts.pop();
    const [version, ...route] = parts;
    if (version === 'trpc') {
      const operation = operationAt(route.join('/'));
      return operation ? { route: `/trpc/${operation.path}`, operation: operation.path } : UNKNOWN;
    }
    if (version === undefined || !/^v\d+$/.test(version) || route.length === 0) return UNKNOWN;
    const candidates = candidatesFor(index, route);
    const wanted = method === 'HEAD' ? 'GET' : method;
    const found = candidates.find((c) => c.route.route.method === wanted);
    // A path that exists with another method (405, OPTIONS) still has its template.
    const template = (found ?? candidates[0])?.route.route.path;
    return {
      route: template === undefined ? undefined : `/${version}${template}`,
      operation: found?.route.operation.path,
    };
  };
}
