import { SignJWT, UnsecuredJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  createTokenService,
  generateRefreshToken,
  hashToken,
  InvalidTokenError,
  keyId,
  parseBearer,
} from './tokens';

const secret = 'a-test-secret-that-is-long-enough-for-hs256!!';
const config = { secret, issuer: 'music-api', audience: 'music-clients' };
const tokens = createTokenService(config);
const claims = {
  sub: '0190a000-0000-7000-8000-000000000001',
  role: 'user',
  sid: '0190a000-0000-7000-8000-000000000002',
};
const key = new TextEncoder().encode(secret);

async function expectRejected(token: string) {
  await expect(tokens.verifyAccessToken(token)).rejects.toBeInstanceOf(InvalidTokenError);
}

describe('access tokens', () => {
  it('round-trips sub, role and sid with a 24 hour lifetime', async () => {
    const token = await tokens.signAccessToken(claims);
    const verified = await tokens.verifyAccessToken(token);
    expect(verified).toMatchObject(claims);
    expect(verified.exp - verified.iat).toBe(86_400);
  });

  it('signs tokens jose verifies with every check pinned', async () => {
    const token = tokens.signAccessTokenSync(claims);
    const payload = await tokens.verifyWithJose(token);
    expect(payload).toMatchObject({ ...claims, iss: config.issuer, aud: config.audience });
    expect(JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString())).toEqual({
      alg: 'HS256',
      typ: 'JWT',
      kid: keyId(secret),
    });
    // Another secret's service refuses it.
    const other = createTokenService({ ...config, secret: `${secret}-other` });
    expect(() => other.verifyAccessTokenSync(token)).toThrow(InvalidTokenError);
  });

  it('remembers a verified token, yet refuses it once expired or before its nbf', async () => {
    const service = createTokenService(config);
    const now = Date.now();
    const token = await service.signAccessToken(claims, now);
    const first = service.verifyAccessTokenSync(token, now);
    expect(service.verifyAccessTokenSync(token, now + 1_000)).toBe(first); // from the cache
    expect(Object.isFrozen(first)).toBe(true);
    expect(() => service.verifyAccessTokenSync(token, now + 86_400_000)).toThrow(InvalidTokenError);
    expect(() => service.verifyAccessTokenSync(token, now + 1_000)).not.toThrow();

    const seconds = Math.floor(now / 1000);
    const early = await new SignJWT({ role: claims.role, sid: claims.sid })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.sub)
      .setIssuer(config.issuer)
      .setAudience(config.audience)
      .setIssuedAt(seconds)
      .setNotBefore(seconds + 60)
      .setExpirationTime(seconds + 3_600)
      .sign(key);
    expect(() => service.verifyAccessTokenSync(early, now)).toThrow(InvalidTokenError);
    expect(service.verifyAccessTokenSync(early, now + 120_000).sub).toBe(claims.sub);
    expect(() => service.verifyAccessTokenSync(early, now)).toThrow(InvalidTokenError); // cached, still early

    const tampered = `${token.slice(0, -2)}${token.at(-2) === 'A' ? 'B' : 'A'}${token.at(-1)}`;
    expect(() => service.verifyAccessTokenSync(tampered, now)).toThrow(InvalidTokenError);
  });

  it('refuses a secret shorter than 32 bytes', () => {
    expect(() => createTokenService({ ...config, secret: 'short' })).toThrow(/32 bytes/);
  });

  it('refuses alg none', async () => {
    const token = new UnsecuredJWT({ ...claims })
      .setIssuer(config.issuer)
      .setAudience(config.audience)
      .setIssuedAt()
      .setExpirationTime('1h')
      .encode();
    await expectRejected(token);
  });

  it('refuses another algorithm signed with our own secret', async () => {
    const token = await new SignJWT({ role: 'admin', sid: claims.sid })
      .setProtectedHeader({ alg: 'HS512', typ: 'JWT' })
      .setSubject(claims.sub)
      .setIssuer(config.issuer)
      .setAudience(config.audience)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(key);
    await expectRejected(token);
  });

  it('refuses tokens signed with another key', async () => {
    const other = createTokenService({ ...config, secret: `${secret}-but-different` });
    await expectRejected(await other.signAccessToken(claims));
  });

  it('refuses a wrong issuer or audience', async () => {
    await expectRejected(await createTokenService({ ...config, issuer: 'evil' }).signAccessToken(claims));
    await expectRejected(await createTokenService({ ...config, audience: 'evil' }).signAccessToken(claims));
  });

  it('refuses expired tokens and tokens without exp', async () => {
    await expectRejected(await tokens.signAccessToken(claims, Date.now() - 25 * 3600 * 1000));
    const noExp = await new SignJWT({ role: 'user', sid: claims.sid })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.sub)
      .setIssuer(config.issuer)
      .setAudience(config.audience)
      .setIssuedAt()
      .sign(key);
    await expectRejected(noExp);
  });

  it('refuses a token whose nbf lies in the future', async () => {
    const token = await new SignJWT({ role: 'user', sid: claims.sid })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.sub)
      .setIssuer(config.issuer)
      .setAudience(config.audience)
      .setIssuedAt()
      .setNotBefore('1h')
      .setExpirationTime('2h')
      .sign(key);
    await expectRejected(token);
  });

  it('refuses a tampered payload', async () => {
    const [header, , signature] = (await tokens.signAccessToken(claims)).split('.');
    const forged = Buffer.from(JSON.stringify({ ...claims, role: 'admin', iss: 'music-api' })).toString(
      'base64url',
    );
    await expectRejected(`${header}.${forged}.${signature}`);
  });

  it('refuses garbage of every shape without throwing anything but InvalidTokenError', async () => {
    for (const garbage of [
      '',
      'abc',
      'a.b.c',
      '...',
      'eyJhbGciOiJIUzI1NiJ9.e30.',
      `${'x'.repeat(5000)}.y.z`,
    ]) {
      await expectRejected(garbage);
    }
  });
});

describe('key rotation', () => {
  const oldSecret = secret;
  const newSecret = 'the-next-signing-secret-long-enough-for-hs256';
  const before = createTokenService(config);
  const during = createTokenService({ ...config, secret: newSecret, previousSecrets: [oldSecret] });
  const after = createTokenService({ ...config, secret: newSecret });

  it('names each key by an id derived from it that reveals nothing of it', () => {
    expect(keyId(oldSecret)).toBe(keyId(oldSecret));
    expect(keyId(oldSecret)).not.toBe(keyId(newSecret));
    expect(keyId(oldSecret)).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(oldSecret).not.toContain(keyId(oldSecret));
  });

  it('keeps accepting tokens of a previous key while signing with the new one', async () => {
    const old = before.signAccessTokenSync(claims);
    const fresh = during.signAccessTokenSync(claims);
    expect(during.verifyAccessTokenSync(old).sub).toBe(claims.sub);
    expect(during.verifyAccessTokenSync(fresh).sub).toBe(claims.sub);
    // Instances not yet restarted do not know the new key; once the old one is dropped, its
    // tokens are refused.
    expect(() => before.verifyAccessTokenSync(fresh)).toThrow(InvalidTokenError);
    expect(after.verifyAccessTokenSync(fresh).sub).toBe(claims.sub);
    expect(() => after.verifyAccessTokenSync(old)).toThrow(InvalidTokenError);
    // Accepting a key ahead of using it (the first step of a rotation) works the same way.
    const ahead = createTokenService({ ...config, previousSecrets: [newSecret] });
    expect(ahead.verifyAccessTokenSync(fresh).sub).toBe(claims.sub);
  });

  it('refuses a kid naming no configured key, even with a valid signature of another', async () => {
    const token = before.signAccessTokenSync(claims);
    const [, payload] = token.split('.');
    const header = Buffer.from(
      JSON.stringify({ alg: 'HS256', typ: 'JWT', kid: 'someone-elses-id' }),
    ).toString('base64url');
    const forged = await new SignJWT(JSON.parse(Buffer.from(payload!, 'base64url').toString()))
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: 'someone-elses-id' })
      .sign(key);
    expect(forged.split('.')[0]).toBe(header);
    expect(() => during.verifyAccessTokenSync(forged)).toThrow(/unknown key id/);
  });

  it('accepts tokens signed before keys had ids, with any configured key', async () => {
    const legacy = await new SignJWT({ ...claims })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(config.issuer)
      .setAudience(config.audience)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(key);
    expect(during.verifyAccessTokenSync(legacy).sid).toBe(claims.sid);
    expect(() => after.verifyAccessTokenSync(legacy)).toThrow(InvalidTokenError);
  });

  it('signs with the configured lifetime and says so', () => {
    const short = createTokenService({ ...config, accessTokenTtlSeconds: 300 });
    expect(short.accessTokenTtlSeconds).toBe(300);
    const verified = short.verifyAccessTokenSync(short.signAccessTokenSync(claims));
    expect(verified.exp - verified.iat).toBe(300);
    expect(tokens.accessTokenTtlSeconds).toBe(86_400);
  });
});

describe('refresh tokens', () => {
  it('are random, URL-safe and hashed deterministically', () => {
    const a = generateRefreshToken();
    const b = generateRefreshToken();
    expect(a).not.toBe(b);
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(hashToken(a)).toBe(hashToken(a));
    expect(hashToken(a)).not.toBe(hashToken(b));
    expect(hashToken(a)).not.toContain(a);
  });
});

describe('parseBearer', () => {
  it('extracts a bearer token and ignores everything else', () => {
    expect(parseBearer('Bearer abc.def.ghi')).toBe('abc.def.ghi');
    expect(parseBearer('bearer abc')).toBe('abc');
    expect(parseBearer('Basic abc')).toBeUndefined();
    expect(parseBearer('Bearer')).toBeUndefined();
    expect(parseBearer('Bearer a b')).toBeUndefined();
    expect(parseBearer(undefined)).toBeUndefined();
    expect(parseBearer(`Bearer ${'a'.repeat(5000)}`)).toBeUndefined();
  });
});

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
    const variants: Array<[Record<string, unknown>, Record<string, unknown>]> = [
      [
        { alg: 'HS256', typ: 'JWT' },
        {
          sub: 's',
          sid: 'x',
          role: 'user',
          iat: now,
          exp: now + 60,
          iss: config.issuer,
          aud: config.audience,
        },
      ],
      [
        { alg: 'HS256' },
        {
          sub: 's',
          sid: 'x',
          role: 'user',
          iat: now,
          exp: now + 60,
          iss: config.issuer,
          aud: config.audience,
        },
      ],
      [
        { alg: 'HS256', typ: 'at+jwt' },
        {
          sub: 's',
          sid: 'x',
          role: 'user',
          iat: now,
          exp: now + 60,
          iss: config.issuer,
          aud: config.audience,
        },
      ],
      [
        { alg: 'HS256', typ: 'JWT' },
        {
          sub: 's',
          sid: 'x',
          role: 'user',
          iat: now,
          exp: now - 1,
          iss: config.issuer,
          aud: config.audience,
        },
      ],
      [
        { alg: 'HS256', typ: 'JWT' },
        { sub: 's', sid: 'x', role: 'user', iat: now, iss: config.issuer, aud: config.audience },
      ],
      [
        { alg: 'HS256', typ: 'JWT' },
        {
          sub: 's',
          sid: 'x',
          role: 'user',
          iat: now,
          exp: now + 60,
          nbf: now + 30,
          iss: config.issuer,
          aud: config.audience,
        },
      ],
      [
        { alg: 'HS256', typ: 'JWT' },
        {
          sub: 's',
          sid: 'x',
          role: 'user',
          iat: now,
          exp: now + 60,
          iss: config.issuer,
          aud: [config.audience, 'x'],
        },
      ],
      [
        { alg: 'HS256', typ: 'JWT' },
        { sub: 's', sid: 'x', role: 'user', iat: now, exp: now + 60, iss: 'other', aud: config.audience },
      ],
      [
        { alg: 'HS256', typ: 'JWT' },
        { sub: 's', role: 'user', iat: now, exp: now + 60, iss: config.issuer, aud: config.audience },
      ],
      [
        { alg: 'HS256', typ: 'JWT' },
        { sub: 's', sid: 'x', role: 'user', exp: now + 60, iss: config.issuer, aud: config.audience },
      ],
    ];
    const outcomes: string[] = [];
    for (const [header, payload] of variants) {
      const encode = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
      const input = `${encode(header)}.${encode(payload)}`;
      const { createHmac } = await import('node:crypto');
      const signature = createHmac('sha256', key).update(input).digest('base64url');
      outcomes.push(await agree(`${input}.${signature}`));
    }
    expect(outcomes).toEqual([
      'accept',
      'reject',
      'reject',
      'reject',
      'reject',
      'reject',
      'accept',
      'reject',
      'reject',
      'reject',
    ]);
  });
});
