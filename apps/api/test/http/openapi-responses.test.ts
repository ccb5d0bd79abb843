import { describe, expect, it } from 'vitest';
import { all, CODES, doc, type Json } from '../support/openapi-document';

/** The status of each error code, as the contract lists them. */
const STATUS: Record<string, string> = {
  BAD_REQUEST: '400',
  UNAUTHORIZED: '401',
  FORBIDDEN: '403',
  NOT_FOUND: '404',
  METHOD_NOT_ALLOWED: '405',
  CONFLICT: '409',
  GONE: '410',
  PRECONDITION_FAILED: '412',
  PAYLOAD_TOO_LARGE: '413',
  VALIDATION_FAILED: '422',
  TOO_MANY_REQUESTS: '429',
  INTERNAL_SERVER_ERROR: '500',
  SERVICE_UNAVAILABLE: '503',
};
const REF = /^#\/components\/responses\/(\w+)$/;
/** The operations as served: their responses not resolved. */
const served = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item as Json).map(([method, op]: [string, Json]) => ({
    key: `${method.toUpperCase()} ${path}`,
    responses: op.responses as Record<string, Json>,
  })),
);
const raw = (key: string, status: string) => served.find((o) => o.key === key)!.responses[status];

describe('the reusable responses of /v1/openapi.json', () => {
  it('writes each contract error once, in components.responses, and every operation references it', () => {
    const components = doc.components.responses;
    expect(Object.keys(components)).toEqual(
      expect.arrayContaining([
        'BadRequest',
        'Unauthorized',
        'Forbidden',
        'NotFound',
        'Conflict',
        'Gone',
        'PreconditionFailed',
        'PayloadTooLarge',
        'ValidationFailed',
        'TooManyRequests',
        'InternalServerError',
        'ServiceUnavailable',
      ]),
    );
    let references = 0;
    for (const { key, responses } of served) {
      for (const [status, response] of Object.entries(responses)) {
        // The health check's 503 has its own body (Health): the one error that is not the contract's.
        if (Number(status) < 400 || (key === 'GET /health' && status === '503')) continue;
        const name = REF.exec(response.$ref)?.[1];
        expect(name, `${key} ${status}: inline`).toBeDefined();
        // A Reference Object takes a description (and a summary) beside $ref, nothing else.
        expect(
          Object.keys(response).filter((k) => k !== '$ref' && k !== 'description'),
          key,
        ).toEqual([]);
        const component = components[name!];
        const code = component.content['application/json'].example.code;
        expect(CODES, name).toContain(code);
        expect(STATUS[code], `${key} ${status} -> ${name}`).toBe(status);
        // Beside the reference only when the operation's wording is its own.
        if (response.description !== undefined)
          expect(response.description, `${key} ${status}`).not.toBe(component.description);
        references++;
      }
    }
    expect(references).toBeGreaterThan(250);
  });

  it("keeps each operation's wording, the component's where it has none", () => {
    const generic = doc.components.responses;
    expect(raw('GET /songs/{songId}', '404').description).toMatch(/No song with this id/);
    expect(raw('GET /songs/{songId}', '401')).toEqual({ $ref: '#/components/responses/Unauthorized' });
    expect(raw('POST /auth/login', '401').description).toMatch(/password/);
    expect(raw('POST /songs', '422').description).toMatch(/Idempotency-Key/);
    expect(raw('GET /songs', '400').description).toMatch(/`sort`/);
    expect(raw('DELETE /songs/{songId}', '400').description).not.toMatch(/body/);
    expect(raw('GET /openapi.json', '400').description).toMatch(/If-None-Match/);
    expect(generic.Unauthorized.description).toMatch(/Token missing/);
    for (const { key, op } of all)
      for (const [status, response] of Object.entries(op.responses) as Array<[string, Json]>)
        expect(response.description, `${key} ${status}`).toBeTruthy();
  });

  it('writes the answers without a body (204, 304) once too', () => {
    for (const { key, responses } of served) {
      if (responses['204'])
        expect(responses['204'].$ref, key).toMatch(/^#\/components\/responses\/NoContent/);
      if (responses['304'])
        expect(responses['304'].$ref, key).toMatch(/^#\/components\/responses\/NotModified/);
    }
    expect(raw('GET /openapi.json', '304').$ref).toBe('#/components/responses/NotModifiedUnmetered');
  });

  it('shares the parameters several operations declare alike', () => {
    for (const name of ['Page', 'Limit', 'SongId', 'ArtistId', 'PlaylistId', 'UserId'])
      expect(doc.components.parameters[name]?.in, name).toBeDefined();
    const uses = new Map<string, number>();
    for (const item of Object.values(doc.paths) as Json[])
      for (const op of Object.values(item) as Json[])
        for (const p of op.parameters ?? []) {
          const key = JSON.stringify(p);
          if (!p.$ref) uses.set(key, (uses.get(key) ?? 0) + 1);
        }
    // Nothing declared twice inline: it would be a component.
    for (const [parameter, count] of uses) expect(count, parameter).toBe(1);
  });

  it('stays small enough to fetch and read (it was 275 KB with every error inline)', () => {
    // Per operation, so a new operation is not a failure but inlined errors are (with every
    // error inline it was ~8 KB an operation; shared components keep it near 3.5 KB).
    expect(Buffer.byteLength(JSON.stringify(doc)) / served.length).toBeLessThan(4_200);
  });
});
