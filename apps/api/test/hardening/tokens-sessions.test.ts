import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { expectUnauthorized, pair, TRANSPORTS, useTokenRig } from './token-rig';

/**
 * Refresh tokens and session events across both transports and two instances on one database:
 * rotation and the replay of a rotated token, concurrent refreshes, odd refresh tokens, and
 * logout, demotion and deletion taking effect everywhere on the next request.
 */

const { rig, me, createPlaylist, refresh, login } = useTokenRig();

describe('refresh tokens across transports and instances', () => {
  it('rotates on /trpc; the replay of a rotated token revokes the session everywhere', async () => {
    const user = await rig.api.signUp();
    const rotated = await refresh('trpc', user.refreshToken);
    expect(rotated.status).toBe(200);
    const next = pair(rotated);
    expect(next.refreshToken).not.toBe(user.refreshToken);
    expect((await me('trpc', next.accessToken)).status).toBe(200);
    expect((await me('v1', next.accessToken, 'sibling')).status).toBe(200);

    // The old token, replayed through the other transport on the other instance, after the
    // grace period for a client's own repeat (REFRESH_REUSE_GRACE_SECONDS; refresh-grace.test.ts).
    await sql`update refresh_tokens set rotated_at = now() - interval '1 minute'`.execute(
      rig.api.database.db,
    );
    expectUnauthorized('v1', await refresh('v1', user.refreshToken, 'sibling'), 'replay');
    for (const transport of TRANSPORTS) {
      for (const which of ['main', 'sibling'] as const) {
        expectUnauthorized(transport, await me(transport, next.accessToken, which), `${transport} ${which}`);
        expectUnauthorized(transport, await me(transport, user.token, which), `${transport} ${which} old`);
      }
      expectUnauthorized(
        transport,
        await refresh(transport, next.refreshToken),
        `${transport} newest refresh`,
      );
    }
  });

  it('answers two concurrent refreshes of one token on two instances both, in the same session', async () => {
    const user = await rig.api.signUp();
    const results = await Promise.all([
      refresh('trpc', user.refreshToken),
      refresh('v1', user.refreshToken, 'sibling'),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    const [a, b] = results.map(pair) as [ReturnType<typeof pair>, ReturnType<typeof pair>];
    expect(a.refreshToken).not.toBe(b.refreshToken);
    for (const tokens of [a, b]) {
      expect((await me('v1', tokens.accessToken)).status).toBe(200);
      expect((await refresh('v1', tokens.refreshToken, 'sibling')).status).toBe(200);
    }
  });

  it('refuses refresh tokens of odd shapes: 422 empty or over 512 characters, else 401; never 500', async () => {
    for (const transport of TRANSPORTS) {
      for (const [refreshToken, status] of [
        ['', 422],
        ['x'.repeat(513), 422],
        ['x'.repeat(512), 401],
        ["'; drop table sessions; --", 401],
        ['\u0000', 401],
        ['%_%', 401],
      ] as const) {
        const res = await refresh(transport, refreshToken);
        expect(res.status, `${transport} ${JSON.stringify(refreshToken.slice(0, 20))}`).toBe(status);
      }
      for (const body of [{ refreshToken: 42 }, { refreshToken: null }, { refreshToken: ['a'] }, {}]) {
        const res =
          transport === 'v1'
            ? await rig.api.request('POST', '/auth/refresh', { body })
            : await rig.trpc.call('auth.refresh', body);
        expect(res.status, `${transport} ${JSON.stringify(body)}`).toBe(422);
      }
    }
  });
});

describe('session events reach every instance on the next request', () => {
  it('logout on /trpc ends the session on both transports of both instances', async () => {
    const user = await rig.api.signUp();
    expect((await me('trpc', user.token, 'sibling')).status).toBe(200);
    const out = await rig.trpc.call('auth.logout', undefined, user.token);
    expect(out.status).toBe(200);
    for (const transport of TRANSPORTS) {
      for (const which of ['main', 'sibling'] as const) {
        expectUnauthorized(transport, await me(transport, user.token, which), `${transport} ${which}`);
      }
      expectUnauthorized(
        transport,
        await refresh(transport, user.refreshToken, 'sibling'),
        `${transport} refresh`,
      );
    }
    // Logging out twice is a 401 (the session is gone), not a 500.
    expectUnauthorized('trpc', await rig.trpc.call('auth.logout', undefined, user.token), 'second logout');
  });

  it('a demoted admin loses admin rights on /trpc and on the sibling at once; a promoted user gains them', async () => {
    const [admin, other] = await Promise.all([rig.api.signUp('admin'), rig.api.signUp('admin')]);
    expect((await rig.trpc.call('users.list', {}, admin.token)).status).toBe(200);
    expect((await rig.sibling.request('GET', '/users', { token: admin.token })).status).toBe(200);
    const demote = await rig.api.request('PUT', `/users/${admin.id}`, {
      token: other.token,
      body: { username: 'Demoted', email: admin.email, password: admin.password, role: 'user' },
    });
    expect(demote.status).toBe(200);
    expect((await rig.trpc.call('users.list', {}, admin.token)).status).toBe(403);
    expect((await rig.siblingTrpc.call('users.list', {}, admin.token)).status).toBe(403);
    expect((await rig.sibling.request('GET', '/users', { token: admin.token })).status).toBe(403);
    // (That a user cannot promote themself is a cell of the authorization matrix.)

    await rig.api.database.db
      .updateTable('users')
      .set({ role: 'admin' })
      .where('id', '=', admin.id)
      .execute();
    expect((await rig.siblingTrpc.call('users.list', {}, admin.token)).status).toBe(200);
  });

  it.each(TRANSPORTS)(
    'deleting a user (themself, on %s) ends all their sessions everywhere',
    async (transport) => {
      const user = await rig.api.signUp();
      const second = await login('v1', { email: user.email, password: user.password });
      expect(second.status).toBe(200);
      const secondPair = pair(second);
      const deleted =
        transport === 'v1'
          ? await rig.api.request('DELETE', `/users/${user.id}`, { token: user.token })
          : await rig.trpc.call('users.delete', { userId: user.id }, user.token);
      expect(deleted.status).toBe(transport === 'v1' ? 204 : 200);
      for (const t of TRANSPORTS) {
        for (const which of ['main', 'sibling'] as const) {
          for (const token of [user.token, secondPair.accessToken]) {
            expectUnauthorized(t, await me(t, token, which), `${t} ${which}`);
          }
        }
        expectUnauthorized(t, await refresh(t, user.refreshToken), `${t} refresh`);
        expectUnauthorized(t, await refresh(t, secondPair.refreshToken, 'sibling'), `${t} refresh 2`);
      }
      // Signing in again fails like any unknown email.
      expectUnauthorized('v1', await login('v1', { email: user.email, password: user.password }), 'login');
    },
  );

  it('an admin deleting a user ends that user’s sessions at once', async () => {
    const [admin, user] = await Promise.all([rig.api.signUp('admin'), rig.api.signUp()]);
    expect((await me('trpc', user.token, 'sibling')).status).toBe(200);
    expect((await rig.trpc.call('users.delete', { userId: user.id }, admin.token)).status).toBe(200);
    expectUnauthorized('trpc', await me('trpc', user.token, 'sibling'), 'deleted user');
    expectUnauthorized('v1', await createPlaylist('v1', user.token), 'deleted user writes');
  });
});
