import { operations } from '@music/api-router';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestApi } from './testing/harness';

const api = await startTestApi();
afterAll(() => api.close());
// biome-ignore lint/suspicious/noExplicitAny: the document is walked as plain JSON.
const doc: any = (await api.request('GET', '/openapi.json')).body;

describe('GET /v1/openapi.json', () => {
  it('is a public OpenAPI 3.1 document for /v1, version 1.0.0', async () => {
    const res = await api.request('GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.servers).toEqual([{ url: '/v1', 'x-internal': false }]);
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
    });
    expect(doc.components.securitySchemes.bearerAuth.description).toMatch(/24 hours/);
  });

  it('documents every operation with its real success status and the contract error bodies', () => {
    const routes = operations.flatMap(({ route, isPublic }) => (route ? [{ route, isPublic }] : []));
    expect(routes.length).toBe(operations.length);
    for (const { route, isPublic } of routes) {
      const operation = doc.paths[route.path]?.[route.method.toLowerCase()];
      expect(operation, `${route.method} ${route.path}`).toBeDefined();
      const statuses = Object.keys(operation.responses);
      const success = String(route.status ?? 200);
      expect(statuses, `${route.method} ${route.path}`).toContain(success);
      expect(statuses.filter((s) => s.startsWith('2'))).toEqual([success]);
      if (success === '204') expect(operation.responses['204'].content).toBeUndefined();
      if (success === '201') expect(operation.responses['201'].headers.Location).toBeDefined();
      for (const status of statuses.filter((s) => Number(s) >= 400)) {
        const schema = operation.responses[status].content['application/json'].schema.$ref;
        expect(schema).toBe(
          status === '422' ? '#/components/schemas/ValidationError' : '#/components/schemas/Error',
        );
      }
      expect(statuses).toContain('500');
      if (isPublic) expect(operation.security).toEqual([]);
      else {
        expect(operation.security).toEqual([{ bearerAuth: [] }]);
        expect(statuses).toContain('401');
      }
      for (const code of route.errors ?? []) {
        const status = {
          FORBIDDEN: '403',
          CONFLICT: '409',
          NOT_FOUND: '404',
          TOO_MANY_REQUESTS: '429',
          UNAUTHORIZED: '401',
        }[code as string];
        if (status) expect(statuses, `${route.method} ${route.path} ${code}`).toContain(status);
      }
    }
  });

  it('describes ids as UUIDs and dates in the contract format', () => {
    expect(doc.components.schemas.User.properties.id).toMatchObject({ type: 'string', format: 'uuid' });
    expect(doc.components.schemas.User.properties.createdAt).toMatchObject({
      type: 'string',
      format: 'date-time',
    });
    const param = doc.paths['/users/{userId}'].get.parameters.find(
      (p: { name: string }) => p.name === 'userId',
    );
    expect(param).toMatchObject({ in: 'path', required: true, schema: { type: 'string', format: 'uuid' } });
    expect(JSON.stringify(doc.components.schemas.User)).not.toMatch(/password/);
  });

  it('describes the error bodies exactly', () => {
    expect(doc.components.schemas.Error.required).toEqual(['code', 'message']);
    expect(doc.components.schemas.ValidationError.properties.errors.items.required).toEqual([
      'field',
      'message',
    ]);
  });
});
