import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { DATE, error, expectCreated, validation } from '../support/catalogue';
import { startTestApi, uniqueEmail } from '../support/harness';

const api = await startTestApi();
afterAll(() => api.close());
const admin = await api.signUp('admin');

function newUser(overrides: Record<string, unknown> = {}) {
  return { username: 'New User', email: uniqueEmail('new'), password: 'password-123', ...overrides };
}

describe('POST /v1/users (sign-up)', () => {
  it('creates a user: 201, Location, the user without any password', async () => {
    const body = newUser();
    const res = await api.request<{ id: string }>('POST', '/users', { body });
    expectCreated(res, '/users', {
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      username: 'New User',
      email: body.email,
      role: 'user',
    });
    expect(res.text).not.toMatch(/password|hash|argon/i);
  });

  it('stores the email trimmed and lower-cased and the username trimmed', async () => {
    const email = uniqueEmail('case');
    const res = await api.request('POST', '/users', {
      body: newUser({ email: `  ${email.toUpperCase()} `, username: '  Spaced  ' }),
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ email, username: 'Spaced' });
  });

  it('refuses a duplicate email case-insensitively with 409 CONFLICT', async () => {
    const body = newUser();
    expect((await api.request('POST', '/users', { body })).status).toBe(201);
    const again = await api.request('POST', '/users', { body: { ...body, email: body.email.toUpperCase() } });
    expect(again.status).toBe(409);
    expect(again.body).toEqual(error('CONFLICT'));
  });

  it('creates exactly one account from 10 concurrent identical sign-ups', async () => {
    const body = newUser();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => api.request('POST', '/users', { body })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, ...Array(9).fill(409)]);
  });

  it('answers 422 with one entry per bad field', async () => {
    const res = await api.request('POST', '/users', {
      body: { username: '', email: 'not-an-email', password: 'short' },
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(validation(['username', 'email', 'password']));
    const missing = await api.request('POST', '/users', { body: {} });
    expect(missing.body).toEqual(validation(['username', 'email', 'password']));
  });

  it('enforces the length limits', async () => {
    const long = await api.request('POST', '/users', {
      body: newUser({ username: 'x'.repeat(51), password: 'p'.repeat(129) }),
    });
    expect(long.body).toEqual(validation(['username', 'password']));
    const edge = await api.request('POST', '/users', {
      body: newUser({ username: 'x'.repeat(50), password: 'p'.repeat(8) }),
    });
    expect(edge.status).toBe(201);
  });

  it('rejects unknown and read-only fields under their own names', async () => {
    const res = await api.request('POST', '/users', {
      body: newUser({ id: randomUUID(), createdAt: '2020-01-01T00:00:00Z', nickname: 'x' }),
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(validation(['id', 'createdAt', 'nickname']));
  });

  it('answers 422 for an unknown role but 403 for a real role other than user without admin', async () => {
    expect((await api.request('POST', '/users', { body: newUser({ role: 'superuser' }) })).body).toEqual(
      validation(['role']),
    );
    const anonymous = await api.request('POST', '/users', { body: newUser({ role: 'admin' }) });
    expect(anonymous.status).toBe(403);
    expect(anonymous.body).toEqual(error('FORBIDDEN'));
    const user = await api.signUp();
    const asUser = await api.request('POST', '/users', {
      token: user.token,
      body: newUser({ role: 'artist' }),
    });
    expect(asUser.status).toBe(403);
    expect((await api.request('POST', '/users', { body: newUser({ role: 'user' }) })).status).toBe(201);
  });

  it('lets an admin create users with any role', async () => {
    for (const role of ['artist', 'admin']) {
      const res = await api.request('POST', '/users', { token: admin.token, body: newUser({ role }) });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ role });
    }
  });
});

describe('GET /v1/users', () => {
  it('lists users for an admin in the list envelope, oldest first', async () => {
    const res = await api.request<{ data: Array<{ createdAt: string; id: string }>; pagination: unknown }>(
      'GET',
      '/users?limit=100',
      { token: admin.token },
    );
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({ page: 1, limit: 100, total: expect.any(Number) });
    const keys = res.body.data.map((u) => `${u.createdAt}|${u.id}`);
    expect([...keys].sort()).toEqual(keys);
    expect(JSON.stringify(res.body)).not.toMatch(/password/i);
  });

  it('filters by role, pages stably, and answers past the end with an empty page and the true total', async () => {
    for (let i = 0; i < 3; i++)
      await api.request('POST', '/users', { token: admin.token, body: newUser({ role: 'artist' }) });
    const all = await api.request<{
      data: Array<{ id: string; role: string }>;
      pagination: { total: number };
    }>('GET', '/users?role=artist&limit=100', { token: admin.token });
    expect(all.body.data.every((u) => u.role === 'artist')).toBe(true);
    const total = all.body.pagination.total;
    expect(total).toBe(all.body.data.length);
    const paged: string[] = [];
    for (let page = 1; page <= Math.ceil(total / 2); page++) {
      const res = await api.request<{ data: Array<{ id: string }> }>(
        'GET',
        `/users?role=artist&limit=2&page=${page}`,
        {
          token: admin.token,
        },
      );
      paged.push(...res.body.data.map((u) => u.id));
    }
    expect(paged).toEqual(all.body.data.map((u) => u.id));
    const past = await api.request('GET', '/users?role=artist&page=999', { token: admin.token });
    expect(past.status).toBe(200);
    expect(past.body).toEqual({ data: [], pagination: { page: 999, limit: 20, total } });
  });
});

describe('GET /v1/users/{userId}', () => {
  it('shows yourself, and anyone to an admin', async () => {
    const user = await api.signUp();
    const self = await api.request('GET', `/users/${user.id}`, { token: user.token });
    expect(self.status).toBe(200);
    expect(self.body).toMatchObject({ id: user.id, email: user.email, role: 'user' });
    expect((await api.request('GET', `/users/${user.id}`, { token: admin.token })).body).toEqual(self.body);
  });

  it('answers 403 to a non-admin for any other id, existing, unknown or malformed', async () => {
    const user = await api.signUp();
    const other = await api.signUp();
    for (const id of [other.id, randomUUID(), 'not-a-uuid']) {
      const res = await api.request('GET', `/users/${id}`, { token: user.token });
      expect(res.status, id).toBe(403);
      expect(res.body).toEqual(error('FORBIDDEN'));
    }
  });

  it('answers 404 to an admin for unknown or malformed ids', async () => {
    for (const id of [randomUUID(), 'not-a-uuid', '%27%20or%201%3D1']) {
      const res = await api.request('GET', `/users/${id}`, { token: admin.token });
      expect(res.status, id).toBe(404);
      expect(res.body).toEqual(error('NOT_FOUND'));
    }
  });
});

describe('PUT /v1/users/{userId}', () => {
  it('replaces your own account and the new password works', async () => {
    const user = await api.signUp();
    const email = uniqueEmail('renamed');
    const res = await api.request('PUT', `/users/${user.id}`, {
      token: user.token,
      // Your own new email and password need your current password (version 1.2).
      body: { username: 'Renamed', email, password: 'brand-new-password', currentPassword: user.password },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: user.id,
      username: 'Renamed',
      email,
      role: 'user',
      createdAt: expect.stringMatching(DATE),
      updatedAt: expect.stringMatching(DATE),
    });
    expect(
      (await api.request('POST', '/auth/login', { body: { email, password: 'brand-new-password' } })).status,
    ).toBe(200);
    expect(
      (await api.request('POST', '/auth/login', { body: { email, password: user.password } })).status,
    ).toBe(401);
  });

  it('requires every field but role (422), and rejects unknown ones', async () => {
    const user = await api.signUp();
    const res = await api.request('PUT', `/users/${user.id}`, {
      token: user.token,
      body: { username: 'Only name' },
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(validation(['email', 'password']));
    const extra = await api.request('PUT', `/users/${user.id}`, {
      token: user.token,
      body: { username: 'x', email: user.email, password: user.password, userId: user.id },
    });
    expect(extra.body).toEqual(validation(['userId']));
  });

  it('forbids other accounts and role changes to non-admins, allows an unchanged role', async () => {
    const user = await api.signUp();
    const other = await api.signUp();
    const body = {
      username: 'x',
      email: uniqueEmail(),
      password: 'password-123',
      currentPassword: user.password,
    };
    expect((await api.request('PUT', `/users/${other.id}`, { token: user.token, body })).status).toBe(403);
    const promote = await api.request('PUT', `/users/${user.id}`, {
      token: user.token,
      body: { ...body, role: 'admin' },
    });
    expect(promote.status).toBe(403);
    const same = await api.request('PUT', `/users/${user.id}`, {
      token: user.token,
      body: { ...body, role: 'user' },
    });
    expect(same.status).toBe(200);
  });

  it('answers 409 when the email belongs to someone else (any case)', async () => {
    const user = await api.signUp();
    const other = await api.signUp();
    const res = await api.request('PUT', `/users/${user.id}`, {
      token: user.token,
      body: {
        username: 'x',
        email: other.email.toUpperCase(),
        password: user.password,
        currentPassword: user.password,
      },
    });
    expect(res.status).toBe(409);
    expect(res.body).toEqual(error('CONFLICT'));
  });
});

describe('DELETE /v1/users/{userId}', () => {
  it('deletes your own account with 204 and ends its sessions', async () => {
    const user = await api.signUp();
    const res = await api.request('DELETE', `/users/${user.id}`, { token: user.token });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await api.request('GET', '/auth/me', { token: user.token })).status).toBe(401);
    expect(
      (await api.request('POST', '/auth/refresh', { body: { refreshToken: user.refreshToken } })).status,
    ).toBe(401);
    expect((await api.request('GET', `/users/${user.id}`, { token: admin.token })).status).toBe(404);
  });

  it('forbids deleting others to non-admins; admins get 404 for unknown ids', async () => {
    const user = await api.signUp();
    const other = await api.signUp();
    expect((await api.request('DELETE', `/users/${other.id}`, { token: user.token })).status).toBe(403);
    expect((await api.request('DELETE', `/users/${other.id}`, { token: admin.token })).status).toBe(204);
    expect((await api.request('DELETE', `/users/${other.id}`, { token: admin.token })).status).toBe(404);
    expect((await api.request('DELETE', '/users/not-a-uuid', { token: admin.token })).status).toBe(404);
  });
});
