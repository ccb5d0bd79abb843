import { operations } from '@music/api-router';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestApi } from '../support/harness';
import {
  all,
  at,
  BODIES,
  CODES,
  doc,
  type Json,
  params,
  procedures,
  schemaIn,
  split,
  success,
} from '../support/openapi-document';

const api = await startTestApi();
afterAll(() => api.close());
const served = await api.request('GET', '/openapi.json');

describe('GET /v1/openapi.json', () => {
  it('is a public OpenAPI 3.1 document of version 1.2, with its ETag', () => {
    expect(served.status).toBe(200);
    expect(served.body).toEqual(doc);
    expect(served.headers.get('content-type')).toMatch(/^application\/json/);
    expect(served.headers.get('etag')).toMatch(/^"[^"]+"$/);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.7.0');
    expect(doc.info.description).toMatch(/New in 1\.1/);
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/v1', 'x-internal': false })]);
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
    });
  });

  it('lists every procedure, with a summary, a description and described tags', () => {
    expect(procedures.length).toBe(operations.length);
    for (const { key, op } of procedures) expect(op, key).toBeDefined();
    for (const { key, op } of all) {
      expect(op.summary, key).toBeTruthy();
      expect(op.description?.length ?? 0, `${key} has no description`).toBeGreaterThan(20);
      expect(op.operationId, key).toBeTruthy();
    }
    const used = new Set(all.flatMap(({ op }) => op.tags));
    for (const tag of used) {
      const declared = doc.tags.find((t: Json) => t.name === tag);
      expect(declared?.description, `tag ${tag}`).toBeTruthy();
    }
  });

  it('names every request body, and shows an example request and response of every operation', () => {
    for (const [key, name] of Object.entries(BODIES)) {
      expect(at(...split(key)).requestBody.content['application/json'].schema, key).toEqual({
        $ref: `#/components/schemas/${name}`,
      });
    }
    for (const { key, op } of all) {
      const body = op.requestBody?.content['application/json'];
      if (body) {
        expect(body.schema.$ref, `${key}: inline body`).toMatch(/^#\/components\/schemas\/\w+$/);
        expect(body.example, `${key}: no request example`).toBeDefined();
      }
      for (const p of params(op).filter((p: Json) => p.in === 'path')) expect(p.example, key).toBeDefined();
      const ok = op.responses[success(op)];
      if (ok.content) {
        for (const media of Object.values(ok.content) as Json[])
          expect(media.example, `${key}: no response example`).toBeDefined();
      }
    }
  });

  it('has examples that match their schemas', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    (addFormatsModule as unknown as (a: Ajv2020) => void)(ajv);
    ajv.addSchema({ ...doc, $id: 'doc' });
    const check = (where: string, schema: Json, example: unknown) => {
      const validate = ajv.compile(schemaIn(schema));
      expect(validate(example), `${where}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    };
    let checked = 0;
    for (const { key, op } of all) {
      for (const [status, response] of Object.entries(op.responses) as Array<[string, Json]>) {
        const media = response.content?.['application/json'];
        if (media?.example !== undefined) {
          check(`${key} ${status}`, media.schema, media.example);
          checked++;
        }
      }
      const body = op.requestBody?.content['application/json'];
      if (body) check(`${key} body`, body.schema, body.example);
      for (const p of params(op)) if (p.example !== undefined) check(`${key} ${p.name}`, p.schema, p.example);
    }
    expect(checked).toBeGreaterThan(200);
  });

  it('documents the real success status and the contract error bodies of every operation', () => {
    for (const { route, isPublic, keyAccess, key, op } of procedures) {
      const statuses = Object.keys(op.responses);
      const ok = String(route.status ?? 200);
      expect(
        statuses.filter((s) => s.startsWith('2')),
        key,
      ).toEqual([ok]);
      if (ok === '204') expect(op.responses['204'].content, key).toBeUndefined();
      for (const status of statuses.filter((s) => Number(s) >= 400)) {
        expect(op.responses[status].content['application/json'].schema.$ref, `${key} ${status}`).toBe(
          status === '422' ? '#/components/schemas/ValidationError' : '#/components/schemas/ApiError',
        );
      }
      // 400: a malformed If-Match / If-None-Match is read on every request; 401: a missing token,
      // or a refused one (also on the public operations).
      for (const status of ['400', '401', '429', '500'])
        expect(statuses, `${key} ${status}`).toContain(status);
      // A JSON body is validated (422); a file body (an import) is refused whole (400, 413) or
      // taken, its records' errors reported by line.
      const bodyStatuses = route.upload ? ['400', '413'] : ['400', '413', '422'];
      if (op.requestBody) for (const s of bodyStatuses) expect(statuses, `${key} ${s}`).toContain(s);
      for (const code of route.errors ?? []) {
        const status = { FORBIDDEN: '403', CONFLICT: '409', NOT_FOUND: '404', PRECONDITION_FAILED: '412' }[
          code as string
        ];
        if (status) expect(statuses, `${key} ${code}`).toContain(status);
      }
      // An API key may call it (with the scope named), or only a signed-in session; a key without
      // the scope, or on a session's operation, gets a 403.
      const byKey = keyAccess === 'session' ? [] : [{ apiKeyAuth: keyAccess === 'any' ? [] : [keyAccess] }];
      if (keyAccess !== 'any') expect(statuses, `${key} 403 for keys`).toContain('403');
      if (key === 'POST /users') expect(op.security).toEqual([{}, { bearerAuth: [] }, ...byKey]);
      else if (isPublic) expect(op.security, key).toEqual([]);
      else expect(op.security, key).toEqual([{ bearerAuth: [] }, ...byKey]);
    }
    const login = at('POST', '/auth/login').responses['401'].description;
    expect(login).toMatch(/password/);
    expect(login).not.toMatch(/missing/i);
  });

  it('shapes ApiError and ValidationError so a client narrows on `code`', () => {
    const { ApiError: error, ValidationError: validation } = doc.components.schemas;
    expect([...error.properties.code.enum].sort()).toEqual(
      CODES.filter((c) => c !== 'VALIDATION_FAILED').sort(),
    );
    expect(validation.properties.code.enum).toEqual(['VALIDATION_FAILED']);
    expect(error.required).toEqual(['code', 'message']);
    expect(validation.required).toEqual(expect.arrayContaining(['code', 'message', 'errors']));
    expect(error.properties.errors).toBeUndefined();
    expect(validation.properties.errors.minItems).toBe(1);
    expect(validation.properties.errors.items.required).toEqual(['field', 'message']);
    // `Error`, the name before 1.2, is an alias of ApiError that no response uses.
    expect(doc.components.schemas.Error.$ref).toBe('#/components/schemas/ApiError');
    expect(JSON.stringify(doc.paths)).not.toContain('#/components/schemas/Error"');
    expect(JSON.stringify(doc.components.responses)).not.toContain('#/components/schemas/Error"');
    for (const { key, op } of all) {
      for (const [status, response] of Object.entries(op.responses) as Array<[string, Json]>) {
        const ref = response.content?.['application/json']?.schema.$ref;
        if (ref === '#/components/schemas/ValidationError') expect(status, key).toBe('422');
        if (status === '422') expect(ref, key).toBe('#/components/schemas/ValidationError');
      }
    }
  });
});
