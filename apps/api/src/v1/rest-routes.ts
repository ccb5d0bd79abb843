import {
  AppError,
  appErrorOf,
  type FileUpload,
  isInputFailure,
  type Operation,
  operations,
  type RouteMeta,
} from '@music/api-router';
import { fail } from '../http/http';

/**
 * The `/v1` routing table, built once from the operations (`@music/api-router`'s procedures
 * seam) and their route meta: which operation a method and path name, and how a request's query
 * string or JSON body becomes that operation's input.
 */

export interface CompiledRoute {
  route: RouteMeta;
  operation: Operation;
  segments: string[];
  params: string[];
  literalCount: number;
  queryFields: Set<string>;
  hasBody: boolean;
  /** The body is a file, handed to the procedure unread as its `file` input; the rest is query. */
  upload: boolean;
}

export const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

export function compile(): CompiledRoute[] {
  return operations.flatMap((operation) => {
    const { route } = operation;
    if (!route) return [];
    const segments = route.path.split('/').slice(1);
    const params = segments.filter((s) => s.startsWith('{')).map((s) => s.slice(1, -1));
    const fields = operation.inputFields.filter((key) => !params.includes(key));
    return [
      {
        route,
        operation,
        segments,
        params,
        literalCount: segments.length - params.length,
        queryFields: new Set(
          route.upload ? fields.filter((f) => f !== 'file') : BODY_METHODS.has(route.method) ? [] : fields,
        ),
        hasBody: !route.upload && BODY_METHODS.has(route.method) && fields.length > 0,
        upload: route.upload !== undefined,
      },
    ];
  });
}

function match(route: CompiledRoute, parts: string[]): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const segment = route.segments[i]!;
    const part = parts[i]!;
    if (segment.startsWith('{')) params[segment.slice(1, -1)] = part;
    else if (segment !== part) return undefined;
  }
  return params;
}

/**
 * The routes by segment count and first segment (every route starts with a literal), most
 * literal segments first: a request looks at the few routes of its own shape, not all of them.
 */
export function routeIndex(routes: CompiledRoute[]): Map<string, CompiledRoute[]> {
  const index = new Map<string, CompiledRoute[]>();
  for (const route of [...routes].sort((a, b) => b.literalCount - a.literalCount)) {
    const key = `${route.segments.length}/${route.segments[0]}`;
    index.set(key, [...(index.get(key) ?? []), route]);
  }
  return index;
}

export interface Candidate {
  route: CompiledRoute;
  params: Record<string, string>;
}

export function candidatesFor(index: Map<string, CompiledRoute[]>, parts: string[]): Candidate[] {
  const candidates: Candidate[] = [];
  for (const route of index.get(`${parts.length}/${parts[0]}`) ?? []) {
    const params = match(route, parts);
    if (params) candidates.push({ route, params });
  }
  return candidates;
}

const INTEGER = /^-?\d{1,16}$/;

/** Query strings become the procedure's input: integers for number fields, one value per key. */
export function queryInput(route: CompiledRoute, search: URLSearchParams): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const key of new Set(search.keys())) {
    // Unknown query parameters are ignored (only JSON bodies are strict, per the contract).
    if (!route.queryFields.has(key)) continue;
    const values = search.getAll(key);
    if (values.length > 1) throw fail('BAD_REQUEST', `Query parameter '${key}' was given more than once`);
    const value = values[0]!;
    input[key] = route.operation.numberFields.has(key) && INTEGER.test(value) ? Number(value) : value;
  }
  return input;
}

export function parseJsonBody(
  raw: Buffer,
  contentType: string | undefined,
): Record<string, unknown> | undefined {
  if (raw.length === 0 || raw.toString('utf8').trim() === '') return undefined;
  if (contentType !== undefined && !/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(contentType)) {
    throw fail('BAD_REQUEST', 'The body must be JSON (Content-Type: application/json)');
  }
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(raw));
  } catch {
    throw fail('BAD_REQUEST', 'The body is not valid UTF-8 JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw fail('BAD_REQUEST', 'The body must be a JSON object');
  }
  return body as Record<string, unknown>;
}

/** The methods a path answers, as `Allow` lists them: HEAD wherever GET is, OPTIONS always. */
export function allowed(methods: Iterable<string>): string {
  const list = [...new Set(methods)];
  if (list.includes('GET')) list.splice(list.indexOf('GET') + 1, 0, 'HEAD');
  return [...list, 'OPTIONS'].join(', ');
}

/**
 * The operation's input, read only when its input parser asks (after the caller check: a request
 * without a token is refused before its body is looked at): the JSON body with the path's
 * parameters on a write that takes a body, the query string on a read.
 */
export function inputReader(
  found: Candidate,
  method: string,
  raw: Buffer,
  contentType: string | undefined,
  search: URLSearchParams,
  file?: FileUpload,
): () => Promise<Record<string, unknown>> {
  const { route, params } = found;
  return async () => {
    if (route.upload) return { ...queryInput(route, search), ...params, file };
    if (route.hasBody) {
      const body = parseJsonBody(raw, contentType);
      if (body === undefined) throw fail('BAD_REQUEST', 'A JSON object body is required');
      const clashes = Object.keys(body).filter((key) => route.params.includes(key));
      if (clashes.length > 0) {
        throw new AppError('VALIDATION_FAILED', 'The request body failed validation', {
          errors: clashes.map((field) => ({ field, message: 'Unknown field' })),
        });
      }
      return { ...body, ...params };
    }
    // Operations without body fields (logout, song links) ignore whatever body is sent.
    if (BODY_METHODS.has(method)) return { ...params };
    return { ...queryInput(route, search), ...params };
  };
}

/**
 * Validation of a GET/DELETE input against its schema concerns its query string: that is a 400,
 * not a 422. Any other failure is handed on as it was thrown, for the one error path to answer,
 * a service's own 422 included: a query parameter it finds unusable (a tampered cursor, an
 * unknown `expand`, the audit list's `since`).
 */
export function queryAware(error: unknown, method: string): unknown {
  if (BODY_METHODS.has(method) || !isInputFailure(error)) return error;
  const { error: app } = appErrorOf(error);
  if (app.code !== 'VALIDATION_FAILED') return error;
  const detail = (app.errors ?? []).map((e) => `${e.field}: ${e.message}`).join('; ');
  return new AppError('BAD_REQUEST', `Invalid query parameters (${detail})`);
}
