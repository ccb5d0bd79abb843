import { UnsecuredJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  createTokenService,
  generateRefreshToken,
  hashToken,
  InvalidTokenError,
  keyId,
  parseBearer,
} from './tokens';
import { claims, config, expectRejected, joseToken, secret, tokens } from './tokens.fixtures';

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
    const early = await joseToken({ iat: seconds, nbf: seconds + 60, exp: seconds + 3_600 });
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
    await expectRejected(await joseToken({ alg: 'HS512', payload: { ...claims, role: 'admin' }, exp: '1h' }));
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
    await expectRejected(await joseToken());
  });

  it('refuses a token whose nbf lies in the future', async () => {
    await expectRejected(await joseToken({ nbf: '1h', exp: '2h' }));
  });

  it('refuses a tampered payload', async () => {
    const [header, , signature] = (await tokens.signAccessToken(claims)).split('.');
    const forged = Buffer.from(JSON.stringify({ ...claims, role: 'admin', iss: 'music-api' })).toString(
      'base64url',
    );
    await expectRejected(`${header}.${forged}.${signature}`);
  });

  it('refuses a signature spelled in a non-canonical base64url (a second text for one token)', async () => {
    const token = await tokens.signAccessToken(claims);
    const signature = token.split('.')[2]!;
    // 32 bytes are 43 characters: the last one carries 4 bits and 2 that must be zero. Setting
    // those 2 bits spells the same bytes another way, which a lenient decoder accepts.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(signature.at(-1)!);
    expect(last % 4).toBe(0);
    for (const spare of [1, 2, 3]) {
      const other = `${token.slice(0, -1)}${alphabet[last + spare]}`;
      expect(Buffer.from(other.split('.')[2]!, 'base64url')).toEqual(Buffer.from(signature, 'base64url'));
      await expectRejected(other);
    }
    await expect(tokens.verifyAccessToken(token)).resolves.toMatchObject(claims);
  });

  it('refuses garbage of every shape without throwing anything but InvalidTokenError', async () => {
    const garbage = ['', 'abc', 'a.b.c', '...', 'eyJhbGciOiJIUzI1NiJ9.e30.', `${'x'.repeat(5000)}.y.z`];
    for (const token of garbage) await expectRejected(token);
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
