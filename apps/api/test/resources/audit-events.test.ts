import type { RouterOutputs } from '@music/api-router';
import { afterAll, describe, expect, it } from 'vitest';
import { DATE, error, makeSong, UUID, validation } from '../support/catalogue';
import { createClient, startTestApi, uniqueEmail } from '../support/harness';

/**
 * GET /v1/audit-events over HTTP: its shape, who may read it, its 422s, and what a real request
 * leaves in an event (its X-Request-Id and the client's address).
 */

type AuditPage = RouterOutputs['auditEvents']['list'];

const api = await startTestApi();
afterAll(() => api.close());
const admin = await api.signUp('admin');
const listener = await api.signUp('user');

const events = (query: string, token = admin.token) =>
  api.request<AuditPage>('GET', `/audit-events?${query}`, { token });

describe('GET /v1/audit-events', () => {
  it('answers the events of a record, newest first, with the request id and address of each write', async () => {
    const song = await makeSong(api, admin, { title: 'Audited' });
    const patched = await api.request('PATCH', `/songs/${song.id}`, {
      token: admin.token,
      body: { title: 'Audited twice' },
      headers: { 'x-request-id': 'audit-http-1', 'x-forwarded-for': '203.0.113.9' },
    });
    expect(patched.status).toBe(200);
    const res = await events(`targetType=song&targetId=${song.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [
        {
          id: expect.stringMatching(UUID),
          at: expect.stringMatching(DATE),
          actor: { userId: admin.id, apiKeyId: null },
          action: 'song.updated',
          target: { type: 'song', id: song.id },
          changes: { title: { before: 'Audited', after: 'Audited twice' } },
          requestId: 'audit-http-1',
          address: '203.0.113.9',
        },
        expect.objectContaining({ action: 'song.created', address: '127.0.0.1' }),
      ],
      nextCursor: null,
    });
    // Without an X-Request-Id, the one the server made (and answered) is recorded.
    const deleted = await api.request('DELETE', `/songs/${song.id}`, { token: admin.token });
    const [latest] = (await events(`targetId=${song.id}&limit=1`)).body.data;
    expect(latest).toMatchObject({ action: 'song.deleted', requestId: deleted.headers.get('x-request-id') });
  });

  it('records an anonymous sign-up with no actor, and a password as "changed"', async () => {
    const email = uniqueEmail('audited');
    const made = await api.request('POST', '/users', {
      body: { username: 'audited', email, password: 'long-enough-password' },
    });
    expect(made.status).toBe(201);
    const res = await events(`targetType=user&targetId=${made.body.id}`);
    expect(res.body.data).toEqual([
      expect.objectContaining({
        action: 'user.created',
        actor: { userId: null, apiKeyId: null },
        changes: {
          username: { before: null, after: 'audited' },
          email: { before: null, after: email },
          role: { before: null, after: 'user' },
          password: 'changed',
        },
      }),
    ]);
  });

  it('records nothing for a refused write', async () => {
    const song = await makeSong(api, admin);
    const stale = await api.request('PATCH', `/songs/${song.id}`, {
      token: admin.token,
      body: { title: 'Never' },
      headers: { 'if-match': '"stale"' },
    });
    expect(stale.status).toBe(412);
    const forbidden = await api.request('DELETE', `/songs/${song.id}`, { token: listener.token });
    expect(forbidden.status).toBe(403);
    expect((await events(`targetId=${song.id}`)).body.data.map((e) => e.action)).toEqual(['song.created']);
  });

  it('pages with nextCursor until it is null', async () => {
    const writer = await api.signUp('admin');
    for (let i = 0; i < 3; i++) await makeSong(api, writer);
    const first = await events(`actorId=${writer.id}&limit=2`);
    expect(first.body.data).toHaveLength(2);
    expect(first.body.nextCursor).toMatch(/^[A-Za-z0-9_-]+$/);
    const second = await events(`actorId=${writer.id}&limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body).toEqual({
      data: [expect.objectContaining({ action: 'song.created' })],
      nextCursor: null,
    });
    expect(new Set([...first.body.data, ...second.body.data].map((e) => e.id)).size).toBe(3);
  });

  it('is for admins only: 403 for anyone else, 401 without a token', async () => {
    expect((await events('', listener.token)).body).toEqual(error('FORBIDDEN'));
    expect((await events('', listener.token)).status).toBe(403);
    expect((await api.request('GET', '/audit-events')).status).toBe(401);
  });

  it('answers 422 on the field for a bad targetType, action, since, until or cursor', async () => {
    const cases: Array<[string, string[]]> = [
      ['targetType=album', ['targetType']],
      ['action=song.played', ['action']],
      ['since=yesterday', ['since']],
      ['until=2026-11-22', ['until']],
      ['cursor=bm90LWEtY3Vyc29y', ['cursor']],
      ['since=x&cursor=*', ['since', 'cursor']],
    ];
    for (const [query, fields] of cases) {
      const res = await events(query);
      expect(res.status, query).toBe(422);
      expect(res.body, query).toEqual(validation(fields));
    }
    // The other parameters are checked as every list's: a 400.
    expect((await events('limit=0')).status).toBe(400);
    expect((await events('limit=101')).status).toBe(400);
    expect((await events('targetId=nope')).status).toBe(400);
    expect((await events('since=2026-11-22T12:00:00.000Z&until=2026-11-22T12:00:00%2B01:00')).status).toBe(
      200,
    );
  });
});

describe('auditEvents.list over /trpc', () => {
  const trpc = createClient(api.url.replace(/\/v1$/, '/trpc'));
  const input = (value: unknown) => encodeURIComponent(JSON.stringify(value));

  it('answers the same page, 403 for a non-admin, 422 for a bad query', async () => {
    const song = await makeSong(api, admin);
    const res = await trpc.request('GET', `/auditEvents.list?input=${input({ targetId: song.id })}`, {
      token: admin.token,
    });
    expect(res.status).toBe(200);
    expect(res.body.result.data).toEqual((await events(`targetId=${song.id}`)).body);
    const refused = await trpc.request('GET', `/auditEvents.list?input=${input({})}`, {
      token: listener.token,
    });
    expect(refused.status).toBe(403);
    const bad = await trpc.request('GET', `/auditEvents.list?input=${input({ since: 'then' })}`, {
      token: admin.token,
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.data).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ field: 'since' }] });
  });

  it('records a write made over /trpc with its request id and address', async () => {
    const res = await trpc.request('POST', '/songs.create', {
      token: admin.token,
      body: { title: 'Over RPC', duration: 100 },
      headers: { 'x-request-id': 'audit-rpc-1', 'x-forwarded-for': '198.51.100.4' },
    });
    expect(res.status).toBe(200);
    const id = res.body.result.data.id as string;
    expect((await events(`targetId=${id}`)).body.data).toEqual([
      expect.objectContaining({ action: 'song.created', requestId: 'audit-rpc-1', address: '198.51.100.4' }),
    ]);
  });
});
