import { describe, expect, it } from 'vitest';
import { codeOf, type Transport } from './support';
import { expectUnauthorized, pair, TRANSPORTS, uniqueAddress, useTokenRig } from './token-rig';

/**
 * A thief holding a victim's access token, and nothing else (version 1.2): the token may read
 * and write what the victim may, but it cannot take the account. Changing the email or the
 * password needs the current password, guessing it is throttled like sign-in, and the owner's
 * new password ends the thief's session on both transports and every instance.
 */

const { rig, me, login } = useTokenRig({ LOGIN_MAX_FAILURES_PER_EMAIL: 5 });

function write(transport: Transport, method: 'PUT' | 'PATCH', userId: string, body: object, token: string) {
  if (transport === 'v1') return rig.api.request(method, `/users/${userId}`, { token, body });
  return rig.trpc.call(method === 'PUT' ? 'users.update' : 'users.patch', { userId, ...body }, token);
}

const field = (res: { body: unknown }) => {
  const body = res.body as {
    errors?: Array<{ field: string }>;
    error?: { data?: { errors?: Array<{ field: string }> } };
  };
  return (body.errors ?? body.error?.data?.errors ?? []).map((e) => e.field);
};

describe('a stolen access token', () => {
  it.each(TRANSPORTS)(
    'cannot set a new email or password on %s, and changes nothing trying',
    async (transport) => {
      const victim = await rig.api.signUp();
      // The thief's own copy: a second session of the victim's, as a stolen device would hold.
      const stolen = pair(await login('v1', { email: victim.email, password: victim.password }));
      const before = (await rig.api.request('GET', `/users/${victim.id}`, { token: victim.token })).body;
      const attempts: Array<['PUT' | 'PATCH', object]> = [
        ['PUT', { username: 'Owned', email: 'thief@example.com', password: 'thief-password' }],
        ['PUT', { username: 'Owned', email: victim.email, password: 'thief-password' }],
        ['PATCH', { email: 'thief@example.com' }],
        ['PATCH', { password: 'thief-password' }],
      ];
      for (const [method, body] of attempts) {
        const res = await write(transport, method, victim.id, body, stolen.accessToken);
        expect([res.status, codeOf(res), field(res)], `${method} ${JSON.stringify(body)}`).toEqual([
          422,
          'VALIDATION_FAILED',
          ['currentPassword'],
        ]);
      }
      expect((await rig.api.request('GET', `/users/${victim.id}`, { token: victim.token })).body).toEqual(
        before,
      );
      expect((await login('v1', { email: victim.email, password: victim.password })).status).toBe(200);
    },
  );

  it('guesses the current password no faster than sign-in allows: 429 after the email limit', async () => {
    const victim = await rig.api.signUp();
    const stolen = pair(await login('v1', { email: victim.email, password: victim.password }));
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      // From ever new addresses: the email's limit (5 here) holds whatever the address.
      const res = await rig.api.request('PATCH', `/users/${victim.id}`, {
        token: stolen.accessToken,
        headers: { 'x-forwarded-for': uniqueAddress() },
        body: { password: 'thief-password', currentPassword: `guess-${i}` },
      });
      statuses.push(res.status);
      if (res.status === 429) expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(statuses).toEqual([422, 422, 422, 422, 422, 429, 429]);
    // The right password too, now, on /trpc as on /v1: the window must pass.
    const right = await rig.trpc.call(
      'users.patch',
      { userId: victim.id, password: 'thief-password', currentPassword: victim.password },
      stolen.accessToken,
    );
    expect(right.status).toBe(429);
  });

  it.each(TRANSPORTS)(
    'stops working everywhere once the owner changes the password on %s',
    async (transport) => {
      const victim = await rig.api.signUp();
      const stolen = pair(await login('v1', { email: victim.email, password: victim.password }));
      const changed = await write(
        transport,
        'PATCH',
        victim.id,
        { password: 'the-owners-new-password', currentPassword: victim.password },
        victim.token,
      );
      expect(changed.status).toBe(200);
      for (const t of TRANSPORTS) {
        for (const which of ['main', 'sibling'] as const) {
          expectUnauthorized(t, await me(t, stolen.accessToken, which), `${t} ${which} thief`);
          expect((await me(t, victim.token, which)).status, `${t} ${which} owner`).toBe(200);
        }
      }
      // The thief's refresh token is dead too; the owner signs in with the new password only.
      expectUnauthorized(
        'v1',
        await rig.api.request('POST', '/auth/refresh', { body: { refreshToken: stolen.refreshToken } }),
        'refresh',
      );
      expect((await login('v1', { email: victim.email, password: victim.password })).status).toBe(401);
      expect((await login('v1', { email: victim.email, password: 'the-owners-new-password' })).status).toBe(
        200,
      );
    },
  );
});
