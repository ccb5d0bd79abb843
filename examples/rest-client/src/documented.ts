import type { paths } from '@music/sdk';

/**
 * What the generated types say about responses, for the parts openapi-fetch does not type:
 * the status of an answer and its headers. A step names the route, the status it expects and
 * the headers it reads; each must be in the document, or the typecheck fails. So when the
 * document stops promising a status or a header the scenario relies on, `pnpm typecheck`
 * says so before any request is sent.
 */

type Method = 'get' | 'put' | 'post' | 'delete' | 'patch';

/** Every operation of the document, spelled as in the contract: `PUT /playlists/{playlistId}`. */
export type Route = {
  [P in keyof paths]: {
    [M in Method]: paths[P][M] extends { responses: unknown } ? `${Uppercase<M>} ${P}` : never;
  }[Method];
}[keyof paths];

type OperationOf<R extends Route> = R extends `${infer M} ${infer P}`
  ? P extends keyof paths
    ? Lowercase<M> extends keyof paths[P]
      ? paths[P][Lowercase<M>]
      : never
    : never
  : never;

type ResponsesOf<R extends Route> = OperationOf<R> extends { responses: infer Responses } ? Responses : never;

type RequestOf<R extends Route> = OperationOf<R> extends { requestBody?: infer B } ? NonNullable<B> : never;

/**
 * The JSON body a route takes. Steps declare their bodies with it: openapi-fetch infers the
 * type of a literal passed straight to it, and a field the document does not have would slip
 * through; declared, it fails the typecheck.
 */
export type BodyOf<R extends Route> = [RequestOf<R>] extends [never]
  ? never
  : RequestOf<R> extends { content: { 'application/json': infer J } }
    ? J
    : never;

/** The statuses the document lists for a route. */
export type StatusOf<R extends Route> = keyof ResponsesOf<R> & number;

/** The names of the headers the document lists for one response (the catch-all index dropped). */
export type HeaderOf<R extends Route, S extends StatusOf<R>> = ResponsesOf<R>[S] extends {
  headers: infer Headers;
}
  ? keyof { [K in keyof Headers as string extends K ? never : K]: Headers[K] } & string
  : never;

/** A broken promise of the contract: the scenario prints it and exits non-zero. */
export class Mismatch extends Error {}

/** The answer had the status the step expects (and the document lists), or a Mismatch. */
export function expectStatus<R extends Route, S extends StatusOf<R>>(
  response: Response,
  route: R,
  status: S,
  body?: unknown,
): void {
  if (response.status !== status) {
    const detail = body === undefined ? '' : `: ${JSON.stringify(body).slice(0, 300)}`;
    throw new Mismatch(`${route} answered ${response.status}, expected ${status}${detail}`);
  }
}

/** A header the document lists for this answer, which must be present. */
export function documentedHeader<R extends Route, S extends StatusOf<R>>(
  response: Response,
  route: R,
  status: S,
  name: HeaderOf<R, S>,
): string {
  const value = response.headers.get(name);
  if (value === null) throw new Mismatch(`${route} ${status} has no ${name} header`);
  return value;
}

/** The body of an answer that must have `status` (a success the document lists). */
export function expectData<R extends Route, S extends StatusOf<R>, D>(
  result: { data?: D; error?: unknown; response: Response },
  route: R,
  status: S,
): NonNullable<D> {
  expectStatus(result.response, route, status, result.error);
  if (result.data === undefined || result.data === null) throw new Mismatch(`${route} ${status} has no body`);
  return result.data;
}

/** The error body of an answer that must have `status` (a failure the document lists). */
export function expectError<R extends Route, S extends StatusOf<R>, E>(
  result: { data?: unknown; error?: E; response: Response },
  route: R,
  status: S,
): NonNullable<E> {
  // expectData's checks with the two bodies swapped: the error is the body this answer must have.
  return expectData({ data: result.error, error: result.data, response: result.response }, route, status);
}
