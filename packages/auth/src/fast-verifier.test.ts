import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { claims, config, key, tokens } from './tokens.fixtures';

describe('the fast verifier agrees with jose', () => {
  async function agree(token: string) {
    const fast = await tokens.verifyAccessToken(token).then(
      () => 'accept',
      () => 'reject',
    );
    const reference = await tokens.verifyWithJose(token).then(
      () => 'accept',
      () => 'reject',
    );
    expect(fast, token).toBe(reference);
    return fast;
  }

  it('on valid tokens and on every single-character mutation of one', async () => {
    const token = await tokens.signAccessToken(claims);
    expect(await agree(token)).toBe('accept');
    const alphabet = 'AQgw_-.x';
    let rejected = 0;
    for (let i = 0; i < token.length; i += 3) {
      for (const c of alphabet) {
        if (token[i] === c) continue;
        const mutated = `${token.slice(0, i)}${c}${token.slice(i + 1)}`;
        if ((await agree(mutated)) === 'reject') rejected++;
      }
    }
    expect(rejected).toBeGreaterThan(0);
  });

  it('on tokens with other headers, claims and lifetimes', async () => {
    const now = Math.floor(Date.now() / 1000);
    const valid = {
      sub: 's',
      sid: 'x',
      role: 'user',
      iat: now,
      exp: now + 60,
      iss: config.issuer,
      aud: config.audience,
    };
    const jwt = { alg: 'HS256', typ: 'JWT' };
    const { exp: _exp, ...noExp } = valid;
    const { sid: _sid, ...noSid } = valid;
    const { iat: _iat, ...noIat } = valid;
    const variants: Array<[Record<string, unknown>, Record<string, unknown>, 'accept' | 'reject']> = [
      [jwt, valid, 'accept'],
      [{ alg: 'HS256' }, valid, 'reject'],
      [{ alg: 'HS256', typ: 'at+jwt' }, valid, 'reject'],
      [jwt, { ...valid, exp: now - 1 }, 'reject'],
      [jwt, noExp, 'reject'],
      [jwt, { ...valid, nbf: now + 30 }, 'reject'],
      [jwt, { ...valid, aud: [config.audience, 'x'] }, 'accept'],
      [jwt, { ...valid, iss: 'other' }, 'reject'],
      [jwt, noSid, 'reject'],
      [jwt, noIat, 'reject'],
    ];
    const encode = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const outcomes: string[] = [];
    for (const [header, payload] of variants) {
      const input = `${encode(header)}.${encode(payload)}`;
      const signature = createHmac('sha256', key).update(input).digest('base64url');
      outcomes.push(await agree(`${input}.${signature}`));
    }
    expect(outcomes).toEqual(variants.map(([, , expected]) => expected));
  });
});
