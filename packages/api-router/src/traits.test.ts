import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fieldsOf, operationAt } from './procedures';
import { deriveTraits, type TraitSource } from './traits';
import type { RouteMeta } from './trpc';

const record = z.object({ id: z.string(), updatedAt: z.string(), title: z.string() });
const page = z.object({ data: z.array(record), pagination: z.object({ page: z.number() }) });

function source(
  route: Partial<RouteMeta> & Pick<RouteMeta, 'method' | 'path'>,
  rest: Partial<TraitSource> = {},
) {
  return {
    route: { summary: 's', tag: 't', ...route },
    isPublic: false,
    outputFields: new Set<string>(),
    bodyFields: [],
    ...rest,
  } satisfies TraitSource;
}

describe('deriveTraits', () => {
  const [get, list, create, put, signIn, append, declared, corrected] = deriveTraits([
    source({ method: 'GET', path: '/things/{thingId}' }, { outputFields: fieldsOf(record) }),
    source({ method: 'GET', path: '/things' }, { outputFields: fieldsOf(page) }),
    source(
      { method: 'POST', path: '/things', status: 201 },
      { outputFields: fieldsOf(record), bodyFields: ['title'] },
    ),
    source(
      { method: 'PUT', path: '/things/{thingId}' },
      { outputFields: fieldsOf(record.optional()), bodyFields: ['title'] },
    ),
    source({ method: 'POST', path: '/auth/login' }, { isPublic: true, bodyFields: ['email'] }),
    source({ method: 'POST', path: '/things/{thingId}/parts', status: 204 }, { bodyFields: ['partId'] }),
    source({ method: 'DELETE', path: '/things/{thingId}/parts/{partId}', errors: ['PRECONDITION_FAILED'] }),
    source(
      { method: 'POST', path: '/things/{thingId}/copies', traits: { idempotent: false } },
      { bodyFields: ['x'] },
    ),
  ]);

  it('reads records and pages from the output schema', () => {
    expect(get).toMatchObject({ record: true, list: false, conditionalRead: true, security: 'bearer' });
    expect(list).toMatchObject({ record: false, list: true, conditionalRead: true });
    // Under .optional() it is still a record.
    expect(put).toMatchObject({ record: true, conditionalWrite: true, idempotent: false });
  });

  it('takes Idempotency-Key on POSTs with a body under a collection of records only', () => {
    expect(create).toMatchObject({ idempotent: true, conditionalWrite: false });
    expect(append).toMatchObject({ idempotent: true, record: false });
    expect(signIn).toMatchObject({ idempotent: false, security: 'none' });
  });

  it('checks If-Match where the route declares 412, and a route meta corrects a derived trait', () => {
    expect(declared!.conditionalWrite).toBe(true);
    expect(corrected!.idempotent).toBe(false);
  });

  it('is what the router’s own operations carry', () => {
    expect(operationAt('songs.create')!.traits).toMatchObject({ idempotent: true, record: true });
    expect(operationAt('songs.list')!.traits).toMatchObject({
      list: true,
      conditionalRead: true,
      idempotent: false,
    });
    expect(operationAt('users.create')!.traits).toMatchObject({ idempotent: true, security: 'optional' });
    expect(operationAt('auth.login')!.traits).toMatchObject({ idempotent: false, security: 'none' });
    expect(operationAt('playlists.addSong')!.traits.conditionalWrite).toBe(true);
    // Made, and read back by id: a Location. A key is no record (no updatedAt, no ETag), and its
    // creation takes no Idempotency-Key (a replay would have to keep the token).
    expect(operationAt('songs.create')!.traits.located).toBe(true);
    expect(operationAt('apiKeys.create')!.traits).toMatchObject({
      located: true,
      record: false,
      idempotent: false,
    });
    expect(operationAt('users.passwordResetLink')!.traits.located).toBe(false);
  });

  it('says what an API key needs: a scope by tag and method, any key, or a session', () => {
    expect(operationAt('songs.list')!.traits.keyAccess).toBe('catalogue:read');
    expect(operationAt('artists.linkSong')!.traits.keyAccess).toBe('catalogue:write');
    expect(operationAt('playlists.get')!.traits.keyAccess).toBe('playlists:read');
    expect(operationAt('users.patch')!.traits.keyAccess).toBe('users:write');
    expect(operationAt('auth.me')!.traits.keyAccess).toBe('any');
    expect(operationAt('auth.logout')!.traits.keyAccess).toBe('session');
    expect(operationAt('apiKeys.list')!.traits.keyAccess).toBe('session');
    expect(operationAt('users.passwordResetLink')!.traits.keyAccess).toBe('session');
  });
});
