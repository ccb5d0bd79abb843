import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { createTokenService, InvalidTokenError, keyId } from './tokens';
import { claims, config, joseToken, key, secret, tokens } from './tokens.fixtures';

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
    const legacy = await joseToken({ exp: '1h' });
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
