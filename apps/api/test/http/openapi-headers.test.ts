import { describe, expect, it } from 'vitest';
import {
  all,
  at,
  doc,
  ETAGGED,
  hasParam,
  headerNames,
  IDEMPOTENT,
  IF_MATCH,
  type Json,
  LISTS,
  params,
  SERVICE,
  SINGLE,
  split,
  success,
} from '../support/openapi-document';

describe('the headers and statuses of version 1.1', () => {
  const headerOf = (key: string, status: string) => headerNames(at(...split(key)).responses[status]);

  it('defines each header once, as a component every response references', () => {
    for (const name of [
      'ETag',
      'Link',
      'Location',
      'Retry-After',
      'X-Request-Id',
      'WWW-Authenticate',
      'Idempotent-Replayed',
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'RateLimit-Policy',
    ]) {
      expect(doc.components.headers[name]?.schema, name).toBeDefined();
    }
    for (const { key, op } of all) {
      for (const [status, response] of Object.entries(op.responses) as Array<[string, Json]>) {
        for (const [name, header] of Object.entries(response.headers ?? {}) as Array<[string, Json]>) {
          // A 403's WWW-Authenticate is its own component: only an API key's refusal carries it.
          const component = status === '403' && name === 'WWW-Authenticate' ? 'InsufficientScope' : name;
          expect(header.$ref, `${key} ${status} ${name}`).toBe(`#/components/headers/${component}`);
        }
        expect(headerNames(response), `${key} ${status}`).toContain('X-Request-Id');
      }
    }
  });

  it('puts the RateLimit headers on every answer of a counted operation, and 429 with Retry-After', () => {
    for (const { key, op } of all) {
      const counted = !SERVICE.includes(key);
      for (const [status, response] of Object.entries(op.responses) as Array<[string, Json]>) {
        for (const name of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy'])
          expect(headerNames(response).includes(name), `${key} ${status} ${name}`).toBe(counted);
      }
      if (counted) expect(headerNames(op.responses['429']), key).toContain('Retry-After');
      else expect(op.responses['429'], key).toBeUndefined();
    }
  });

  it('documents WWW-Authenticate on every 401 and Location on every 201 of a record', () => {
    for (const { key, op } of all) {
      if (op.responses['401']) expect(headerNames(op.responses['401']), key).toContain('WWW-Authenticate');
      const created = op.responses['201'];
      if (!created) continue;
      // A record made has a Location; a reset link (a URL in the body, no resource) has none.
      const record = JSON.stringify(created.content ?? {}).match(/"#\/components\/schemas\/(\w+)"/)?.[1];
      if (record === 'PasswordResetLink') expect(headerNames(created), key).not.toContain('Location');
      else expect(headerNames(created), key).toContain('Location');
    }
  });

  it('documents ETag, If-None-Match and 304 on single resources', () => {
    for (const key of ETAGGED) {
      const op = at(...split(key));
      expect(headerNames(op.responses[success(op)]), key).toContain('ETag');
    }
    for (const path of SINGLE) {
      const get = at('GET', path);
      expect(hasParam(get, 'If-None-Match'), path).toBe(true);
      expect(headerNames(get.responses['304']), path).toContain('ETag');
      expect(get.responses['304'].content, path).toBeUndefined();
    }
    expect(at('GET', '/openapi.json').responses['304']).toBeDefined();
  });

  it('documents If-Match and 412 exactly where a write checks it', () => {
    expect(IF_MATCH.length).toBeGreaterThanOrEqual(11);
    for (const key of IF_MATCH) {
      const op = at(...split(key));
      expect(hasParam(op, 'If-Match'), key).toBe(true);
      expect(op.responses['412'], key).toBeDefined();
    }
    for (const { key, op } of all) {
      expect(hasParam(op, 'If-Match'), key).toBe(op.responses['412'] !== undefined);
      if (op.responses['304']) expect(hasParam(op, 'If-None-Match'), key).toBe(true);
    }
  });

  it('takes Idempotency-Key on exactly the creations and the append, and says when it replays', () => {
    for (const { key, op } of all) {
      const idempotent = IDEMPOTENT.includes(key);
      expect(hasParam(op, 'Idempotency-Key'), key).toBe(idempotent);
      if (!idempotent) continue;
      expect(headerNames(op.responses[success(op)]), key).toContain('Idempotent-Replayed');
      expect(op.responses['409'].description, key).toMatch(/Idempotency-Key/);
      expect(op.responses['422'].description, key).toMatch(/Idempotency-Key/);
    }
  });

  it('documents Link on every list', () => {
    for (const key of LISTS) expect(headerOf(key, '200'), key).toContain('Link');
    for (const { key, op } of all) {
      const ok = op.responses[success(op)];
      const ref = ok.content?.['application/json']?.schema?.$ref?.split('/').pop();
      if (ref && doc.components.schemas[ref].properties?.pagination)
        expect(headerNames(ok), key).toContain('Link');
    }
  });
});

describe('bounds and parameters', () => {
  const schemas = doc.components.schemas;
  /** The bounds of a schema (of its non-null variant when nullable). */
  const bounds = (schema: Json) => {
    const s = schema.anyOf ? schema.anyOf.find((v: Json) => v.type !== 'null') : schema;
    const keys = ['maxLength', 'minimum', 'maximum', 'maxItems'];
    return Object.fromEntries(keys.filter((k) => s[k] !== undefined).map((k) => [k, s[k]]));
  };

  it('promises in every response the bounds its input enforces', () => {
    const pairs = {
      UserCreate: 'User',
      ArtistCreate: 'Artist',
      SongCreate: 'Song',
      PlaylistCreate: 'Playlist',
    };
    for (const [input, output] of Object.entries(pairs)) {
      for (const [field, schema] of Object.entries(schemas[input].properties) as Array<[string, Json]>) {
        const returned = schemas[output].properties[field];
        // A song's artists: linking one at a time is not capped, so the output promises no maxItems.
        // An ISRC is taken as people write it (hyphens, spaces: up to 24) and answered as its 12
        // characters, which the input takes back.
        if (!returned || (output === 'Song' && (field === 'artistIds' || field === 'isrc'))) continue;
        expect(bounds(returned), `${output}.${field}`).toEqual(bounds(schema));
      }
    }
    const { page, limit, total } = schemas.Pagination.properties;
    expect(page).toMatchObject({ minimum: 1 });
    expect(limit).toMatchObject({ minimum: 1, maximum: 100, format: 'int32' });
    expect(total).toMatchObject({ minimum: 0, maximum: 2_147_483_647, format: 'int32' });
  });

  it('bounds every integer and gives it the narrowest format', () => {
    const integers: Json[] = [];
    const walk = (node: unknown) => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') {
        if ((node as Json).type === 'integer') integers.push(node);
        for (const [key, value] of Object.entries(node)) if (key !== 'example') walk(value);
      }
    };
    walk(doc);
    // Each shared definition (a component schema or parameter) is walked once.
    expect(integers.length).toBeGreaterThan(15);
    for (const schema of integers) {
      expect(
        typeof schema.minimum === 'number' && typeof schema.maximum === 'number',
        JSON.stringify(schema),
      ).toBe(true);
      const fits32 = schema.minimum >= -(2 ** 31) && schema.maximum < 2 ** 31;
      expect(schema.format, JSON.stringify(schema)).toBe(fits32 ? 'int32' : 'int64');
    }
  });

  it('shows the fields each `sort` takes, and `visibility=public` of GET /playlists', () => {
    const fields: Record<string, string[]> = {
      '/users': ['username', 'email', 'createdAt'],
      '/artists': ['name', 'createdAt'],
      '/songs': ['title', 'album', 'releaseYear', 'duration', 'createdAt'],
      '/playlists': ['name', 'createdAt'],
    };
    for (const [path, names] of Object.entries(fields)) {
      const sort = params(at('GET', path)).find((p: Json) => p.name === 'sort');
      expect(sort?.example, path).toBeTruthy();
      for (const name of names) expect(sort.description, `${path} sort ${name}`).toContain(name);
    }
    const visibility = params(at('GET', '/playlists')).find((p: Json) => p.name === 'visibility');
    expect(visibility.schema.enum).toEqual(['public']);
    expect(visibility.description).toMatch(/public/);
  });
});
