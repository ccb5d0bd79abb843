import { randomUUID } from 'node:crypto';
import { findUserById } from '@music/db';
import { afterAll, describe, expect, it } from 'vitest';
import { DATE, error, validation } from '../support/catalogue';
import { startTestApi } from '../support/harness';

/** Roles over HTTP (version 1.1): `PUT /users/{id}/role`, and there is always an admin. */

const api = await startTestApi();
afterAll(() => api.close());
// The only admin of this database until the first test makes a second one.
const admin = await api.signUp('admin');

const stored = (id: string) => findUserById(api.database.db, id);

describe('there is always an admin', () => {
  it('answers 409 to demoting or deleting the last admin, changing nothing', async () => {
    const before = await api.request('GET', `/users/${admin.id}`, { token: admin.token });
    const row = await stored(admin.id);
    const body = { username: 'Last admin', email: admin.email, password: admin.password };
    for (const [method, path, send] of [
      ['PUT', `/users/${admin.id}/role`, { role: 'user' }],
      ['PUT', `/users/${admin.id}`, { ...body, role: 'artist' }],
      ['DELETE', `/users/${admin.id}`, undefined],
    ] as const) {
      const res = await api.request(method, path, { token: admin.token, body: send });
      expect(res.status, `${method} ${path}`).toBe(409);
      expect(res.body).toEqual(error('CONFLICT'));
      expect(res.body.message).toMatch(/last admin/);
    }
    expect(await stored(admin.id)).toEqual(row);
    const after = await api.request('GET', `/users/${admin.id}`, { token: admin.token });
    expect(after.headers.get('etag')).toBe(before.headers.get('etag'));
  });

  it('lets an admin step down once another admin exists', async () => {
    const second = await api.signUp('admin');
    const res = await api.request('PUT', `/users/${second.id}/role`, {
      token: second.token,
      body: { role: 'user' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: second.id, role: 'user' });
    // Now `admin` is the last one again.
    const again = await api.request('DELETE', `/users/${admin.id}`, { token: admin.token });
    expect(again.status).toBe(409);
  });
});

describe('PUT /v1/users/{userId}/role', () => {
  it('changes the role and nothing else: 200 with the user and its ETag', async () => {
    const user = await api.signUp();
    const before = await stored(user.id);
    const res = await api.request('PUT', `/users/${user.id}/role`, {
      token: admin.token,
      body: { role: 'artist' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: user.id,
      username: before!.username,
      email: user.email,
      role: 'artist',
      createdAt: expect.stringMatching(DATE),
      updatedAt: expect.stringMatching(DATE),
    });
    expect(res.headers.get('etag')).toMatch(/^"[^"]+"$/);
    const after = await stored(user.id);
    expect({ ...after, role: 'user', updated_at: before!.updated_at }).toEqual(before);
    // The password still works, and the stored role is the one the next request sees.
    const login = await api.request('POST', '/auth/login', {
      body: { email: user.email, password: user.password },
    });
    expect(login.body.user.role).toBe('artist');
  });

  it('is 403 to anyone but an admin, whatever the id; 401 without a token', async () => {
    const user = await api.signUp();
    const artist = await api.signUp('artist');
    for (const caller of [user, artist]) {
      for (const id of [caller.id, admin.id, randomUUID(), 'not-a-uuid']) {
        const res = await api.request('PUT', `/users/${id}/role`, {
          token: caller.token,
          body: { role: 'admin' },
        });
        expect(res.status, id).toBe(403);
        expect(res.body).toEqual(error('FORBIDDEN'));
      }
    }
    expect((await stored(user.id))!.role).toBe('user');
    const anonymous = await api.request('PUT', `/users/${user.id}/role`, { body: { role: 'admin' } });
    expect(anonymous.status).toBe(401);
  });

  it('is 404 to an admin for unknown or malformed ids, 422 for a bad body', async () => {
    for (const id of [randomUUID(), 'not-a-uuid']) {
      const res = await api.request('PUT', `/users/${id}/role`, {
        token: admin.token,
        body: { role: 'user' },
      });
      expect(res.status, id).toBe(404);
      expect(res.body).toEqual(error('NOT_FOUND'));
    }
    const user = await api.signUp();
    const path = `/users/${user.id}/role`;
    for (const [body, fields] of [
      [{ role: 'superuser' }, ['role']],
      [{}, ['role']],
      [{ role: 'user', username: 'x' }, ['username']],
    ] as const) {
      const res = await api.request('PUT', path, { token: admin.token, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toEqual(validation([...fields]));
    }
  });

  it('answers 405 with Allow for other methods', async () => {
    const res = await api.request('PATCH', `/users/${admin.id}/role`, {
      token: admin.token,
      body: { role: 'user' },
    });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toContain('PUT');
  });

  it('setting the role a user already has leaves updatedAt and the ETag as they were', async () => {
    const user = await api.signUp('artist');
    const before = await api.request('GET', `/users/${user.id}`, { token: admin.token });
    const row = await stored(user.id);
    const res = await api.request('PUT', `/users/${user.id}/role`, {
      token: admin.token,
      body: { role: 'artist' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe(before.headers.get('etag'));
    expect(await stored(user.id)).toEqual(row);
  });
});
