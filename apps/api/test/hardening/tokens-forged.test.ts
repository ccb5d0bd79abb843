import { createHmac } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_AUDIENCE, TOKEN_ISSUER } from '../../src/server';
import { type SignedIn, TEST_SECRET } from '../support/harness';
import { fingerprint, missingId } from './support';
import { expectUnauthorized, pair, TRANSPORTS, uniqueAddress, useTokenRig } from './token-rig';

/**
 * Forged, malformed and foreign access tokens on both transports: RFC 8725's list (alg none,
 * algorithm and key confusion, tampered parts, wrong or missing claims, oversized tokens),
 * malformed Authorization headers, and a bad token on a public call. (A token whose role claim
 * is stale is tokens-sessions.test.ts's demotion: the role is read from the database.)
 */

const { rig, me, createPlaylist } = useTokenRig();

// --- forging -----------------------------------------------------------------------------------

const b64 = (value: unknown) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

function sign(
  header: unknown,
  payload: unknown,
  options: { hash?: 'sha256' | 'sha384' | 'sha512'; secret?: string } = {},
) {
  const input = `${b64(header)}.${b64(payload)}`;
  const signature = createHmac(options.hash ?? 'sha256', options.secret ?? TEST_SECRET)
    .update(input)
    .digest('base64url');
  return `${input}.${signature}`;
}

const HS256 = { alg: 'HS256', typ: 'JWT' };

function claimsOf(user: SignedIn): Record<string, unknown> {
  return JSON.parse(Buffer.from(user.token.split('.')[1]!, 'base64url').toString());
}

describe('forged, malformed and foreign access tokens', () => {
  let victim: SignedIn;
  let admin: SignedIn;
  let cases: Array<[string, string]>;

  beforeAll(async () => {
    [victim, admin] = await Promise.all([rig.api.signUp(), rig.api.signUp('admin')]);
    const now = Math.floor(Date.now() / 1000);
    const base = {
      sub: victim.id,
      sid: claimsOf(victim).sid,
      role: 'user',
      iss: TOKEN_ISSUER,
      aud: TOKEN_AUDIENCE,
      iat: now,
      exp: now + 3600,
    };
    const without = (key: string) => Object.fromEntries(Object.entries(base).filter(([k]) => k !== key));
    const [h, p, s] = victim.token.split('.') as [string, string, string];
    const tamperedPayload = b64({ ...JSON.parse(Buffer.from(p, 'base64url').toString()), role: 'admin' });
    const swappedSub = b64({ ...JSON.parse(Buffer.from(p, 'base64url').toString()), sub: admin.id });
    cases = [
      ['alg none, no signature', `${b64({ alg: 'none', typ: 'JWT' })}.${b64(base)}.`],
      ['alg none, with a signature', `${b64({ alg: 'none', typ: 'JWT' })}.${b64(base)}.${s}`],
      ['alg NONE', `${b64({ alg: 'NONE', typ: 'JWT' })}.${b64(base)}.`],
      ['alg None, no typ', `${b64({ alg: 'None' })}.${b64(base)}.`],
      ['HS384 with our secret', sign({ alg: 'HS384', typ: 'JWT' }, base, { hash: 'sha384' })],
      ['HS512 with our secret', sign({ alg: 'HS512', typ: 'JWT' }, base, { hash: 'sha512' })],
      ['HS256 header over an HS512 signature', sign(HS256, base, { hash: 'sha512' })],
      ['RS256 header (key confusion)', sign({ alg: 'RS256', typ: 'JWT' }, base)],
      ['another secret', sign(HS256, base, { secret: `${TEST_SECRET}-not-ours` })],
      ['an empty secret', sign(HS256, base, { secret: '' })],
      ['a jku header', sign({ ...HS256, jku: 'http://127.0.0.1:1/keys' }, base)],
      ['a kid header', sign({ ...HS256, kid: '../../../dev/null' }, base)],
      ['typ at+jwt', sign({ alg: 'HS256', typ: 'at+jwt' }, base)],
      ['tampered payload (role admin)', `${h}.${tamperedPayload}.${s}`],
      ['tampered payload (another sub)', `${h}.${swappedSub}.${s}`],
      ['tampered header', `${b64({ alg: 'HS256', typ: 'JWT', x: 1 })}.${p}.${s}`],
      ['signature stripped', `${h}.${p}.`],
      ['signature of another token', `${h}.${p}.${admin.token.split('.')[2]}`],
      ['wrong issuer', sign(HS256, { ...base, iss: 'someone-else' })],
      ['wrong audience', sign(HS256, { ...base, aud: 'someone-else' })],
      ['audience list without ours', sign(HS256, { ...base, aud: ['a', 'b'] })],
      ['no issuer', sign(HS256, without('iss'))],
      ['no audience', sign(HS256, without('aud'))],
      ['no exp', sign(HS256, without('exp'))],
      ['exp in the past', sign(HS256, { ...base, iat: now - 7200, exp: now - 60 })],
      ['exp now', sign(HS256, { ...base, exp: now })],
      ['exp as a string', sign(HS256, { ...base, exp: String(now + 3600) })],
      ['exp null', sign(HS256, { ...base, exp: null })],
      ['exp 1e400 (Infinity)', sign(HS256, JSON.stringify(base).replace(/"exp":\d+/, '"exp":1e400'))],
      ['nbf in the future', sign(HS256, { ...base, nbf: now + 600 })],
      ['nbf not a number', sign(HS256, { ...base, nbf: 'soon' })],
      ['no iat', sign(HS256, without('iat'))],
      ['no sid', sign(HS256, without('sid'))],
      ['sid not a uuid', sign(HS256, { ...base, sid: "' or '1'='1" })],
      ['sid of no session', sign(HS256, { ...base, sid: missingId() })],
      ['sid of another user’s session', sign(HS256, { ...base, sid: claimsOf(admin).sid })],
      ['sub not a uuid', sign(HS256, { ...base, sub: 'admin' })],
      ['sub a number', sign(HS256, { ...base, sub: 42 })],
      ['no sub', sign(HS256, without('sub'))],
      ['payload an array', sign(HS256, [base])],
      ['payload null', sign(HS256, null)],
      ['payload not JSON', sign(HS256, 'not json')],
      ['header not JSON', `${b64('{"alg":')}.${p}.${s}`],
      ['garbage', 'garbage'],
      ['a.b.c', 'a.b.c'],
      ['dots only', '..'],
      ['four parts', `${victim.token}.x`],
      ['base64 padding', `${h}=.${p}.${s}`],
      ['oversized (5 KB)', 'x'.repeat(5_000)],
      ['oversized signed payload (10 KB)', sign(HS256, { ...base, pad: 'p'.repeat(7_500) })],
      ['oversized (15 KB, under the header limit)', `${h}.${'A'.repeat(15_000)}.${s}`],
    ];
    // The control: the same claims signed properly are accepted.
    expect((await me('v1', sign(HS256, base))).status).toBe(200);
  });

  it.each(TRANSPORTS)(
    'answers 401 (never 500) to every one on %s, for a query and a mutation',
    async (transport) => {
      const before = await fingerprint(rig.api.database.db);
      for (const [label, token] of cases) {
        expectUnauthorized(transport, await me(transport, token), `${transport} me: ${label}`);
        expectUnauthorized(
          transport,
          await createPlaylist(transport, token),
          `${transport} create: ${label}`,
        );
      }
      expect(await fingerprint(rig.api.database.db)).toBe(before);
    },
  );

  it.each(TRANSPORTS)('answers 401 to malformed Authorization headers on %s', async (transport) => {
    const headers = [
      'Bearer',
      'Bearer ',
      'Bearer  \t ',
      `Basic ${Buffer.from('a:b').toString('base64')}`,
      `Bearer ${victim.token} ${victim.token}`,
      `Bearer ${victim.token},Bearer ${admin.token}`,
      `Token ${victim.token}`,
      `Bearer ${victim.token.slice(0, -1)}`,
      `Bearer ${victim.token}\u00e9`,
      `Bearer ${'x'.repeat(8_000)}`,
    ];
    for (const header of headers) {
      const res =
        transport === 'v1'
          ? await rig.api.request('GET', '/auth/me', { headers: { authorization: header } })
          : await rig.trpc.request('GET', '/auth.me', { headers: { authorization: header } });
      expectUnauthorized(transport, res, `${transport}: ${header.slice(0, 30)}`);
    }
  });

  it.each(TRANSPORTS)(
    'refuses an invalid token on a public operation on %s with 401, and the same call without it works',
    async (transport) => {
      const user = await rig.api.signUp();
      const body = { email: user.email, password: user.password };
      const address = { 'x-forwarded-for': uniqueAddress() };
      const headers = { authorization: 'Bearer a.b.c', ...address };
      // Since version 1.1: a token that was presented and refused is a 401 everywhere, never a
      // silent downgrade to anonymous.
      const refused =
        transport === 'v1'
          ? await rig.api.request('POST', '/auth/login', { headers, body })
          : await rig.trpc.request('POST', '/auth.login', { headers, body });
      expectUnauthorized(transport, refused, `${transport}: login with a refused token`);
      const signedIn =
        transport === 'v1'
          ? await rig.api.request('POST', '/auth/login', { headers: address, body })
          : await rig.trpc.request('POST', '/auth.login', { headers: address, body });
      expect(signedIn.status, signedIn.text).toBe(200);
      const { refreshToken } = pair(signedIn);
      const refreshed =
        transport === 'v1'
          ? await rig.api.request('POST', '/auth/refresh', { token: 'a.b.c', body: { refreshToken } })
          : await rig.trpc.call('auth.refresh', { refreshToken }, 'a.b.c');
      expectUnauthorized(transport, refreshed, `${transport}: refresh with a refused token`);
      const renewed =
        transport === 'v1'
          ? await rig.api.request('POST', '/auth/refresh', { body: { refreshToken } })
          : await rig.trpc.call('auth.refresh', { refreshToken });
      expect(renewed.status, renewed.text).toBe(200);
    },
  );
});
