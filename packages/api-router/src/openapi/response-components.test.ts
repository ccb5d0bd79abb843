import { describe, expect, it } from 'vitest';
import { ERROR_CODES, type ErrorCode } from '../error-codes';
import { createOpenApiDocument } from '../openapi';
import { operations } from '../procedures';
import type { Json } from './components';
import { OPERATION_DOCS } from './operations';
import { ERROR_DESCRIPTIONS, ResponseComponents } from './response-components';

const counted = { counted: true };

describe('ResponseComponents', () => {
  it('references a component, with a description beside it only where the wording differs', () => {
    const responses = new ResponseComponents();
    expect(responses.error('NOT_FOUND', counted)).toEqual({ $ref: '#/components/responses/NotFound' });
    expect(responses.error('NOT_FOUND', counted, ERROR_DESCRIPTIONS.NOT_FOUND)).toEqual({
      $ref: '#/components/responses/NotFound',
    });
    expect(responses.error('NOT_FOUND', counted, 'No song with this id')).toEqual({
      $ref: '#/components/responses/NotFound',
      description: 'No song with this id',
    });
    expect(Object.keys(responses.toJson())).toEqual(['NotFound']);
  });

  it('names each header set apart, and holds only the components referenced', () => {
    const responses = new ResponseComponents();
    responses.error('INTERNAL_SERVER_ERROR', { counted: false });
    responses.error('INTERNAL_SERVER_ERROR', counted);
    responses.error('UNAUTHORIZED', counted);
    responses.bodiless('NoContent', { counted: true, replayable: true });
    responses.bodiless('NotModified', { counted: true, replayable: true });
    const components = responses.toJson();
    expect(Object.keys(components)).toEqual([
      'NoContentReplayable',
      'NotModified',
      'Unauthorized',
      'InternalServerError',
      'InternalServerErrorUnmetered',
    ]);
    const headers = (name: string) => Object.keys(components[name]!.headers as Json);
    expect(headers('InternalServerErrorUnmetered')).toEqual(['X-Request-Id', 'Access-Control-Allow-Origin']);
    expect(headers('InternalServerError')).toContain('RateLimit-Remaining');
    expect(headers('Unauthorized')).toContain('WWW-Authenticate');
    expect(headers('NoContentReplayable')).toContain('Idempotent-Replayed');
    // A 304 is never a replay: only a 204 carries Idempotent-Replayed.
    expect(headers('NotModified')).not.toContain('Idempotent-Replayed');
    expect(headers('NotModified')).toContain('ETag');
    // Copies: changing what was handed out changes nothing of the next document.
    (components.Unauthorized as Json).description = 'changed';
    expect(responses.toJson().Unauthorized?.description).toBe(ERROR_DESCRIPTIONS.UNAUTHORIZED);
  });
});

describe('the error responses of the document', () => {
  const document = createOpenApiDocument() as unknown as {
    paths: Record<string, Record<string, { responses: Record<string, Json> }>>;
    components: { responses: Record<string, Json> };
  };
  const components = document.components.responses;
  /** What a reader of the operation sees: the component, reworded by the description beside the reference. */
  const described = (response: Json) => {
    const name = String(response.$ref ?? '').replace('#/components/responses/', '');
    return (response.description ?? components[name]?.description) as string | undefined;
  };

  it("keeps every operation's own wording of its errors", () => {
    let checked = 0;
    for (const { path, route } of operations) {
      if (!route) continue;
      const responses = document.paths[route.path]![route.method.toLowerCase()]!.responses;
      for (const [code, wording] of Object.entries(OPERATION_DOCS[path]?.errors ?? {})) {
        const status = String(ERROR_CODES[code as ErrorCode].status);
        expect(responses[status]?.$ref, `${path} ${status}`).toMatch(/^#\/components\/responses\/\w+$/);
        expect(described(responses[status]!), `${path} ${status}`).toContain(wording);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(30);
  });

  it('references only components that exist, each answering the status it is listed under', () => {
    const used = new Set<string>();
    for (const item of Object.values(document.paths)) {
      for (const { responses } of Object.values(item)) {
        for (const [status, response] of Object.entries(responses)) {
          if (response.$ref === undefined) continue;
          const name = String(response.$ref).replace('#/components/responses/', '');
          used.add(name);
          const component = components[name] as { content?: Record<string, { example: { code?: string } }> };
          expect(component, name).toBeDefined();
          const code = component.content?.['application/json']?.example.code as ErrorCode | undefined;
          if (code) expect(String(ERROR_CODES[code].status), name).toBe(status);
        }
      }
    }
    expect([...used].sort()).toEqual(Object.keys(components).sort());
  });
});
