import { type JWTPayload, SignJWT } from 'jose';
import { expect } from 'vitest';
import { createTokenService, InvalidTokenError } from './tokens';

export const secret = 'a-test-secret-that-is-long-enough-for-hs256!!';
export const config = { secret, issuer: 'music-api', audience: 'music-clients' };
export const tokens = createTokenService(config);
export const claims = {
  sub: '0190a000-0000-7000-8000-000000000001',
  role: 'user',
  sid: '0190a000-0000-7000-8000-000000000002',
};
export const key = new TextEncoder().encode(secret);

export async function expectRejected(token: string) {
  await expect(tokens.verifyAccessToken(token)).rejects.toBeInstanceOf(InvalidTokenError);
}

/**
 * A token made by jose rather than by the service under test, signed with `key` for our issuer and
 * audience: the test picks the algorithm, the claims and which of iat, nbf and exp it carries.
 */
export function joseToken(
  options: {
    alg?: string;
    payload?: JWTPayload;
    iat?: number;
    nbf?: number | string;
    exp?: number | string;
  } = {},
): Promise<string> {
  const { alg = 'HS256', payload = claims, iat, nbf, exp } = options;
  const jwt = new SignJWT({ ...payload })
    .setProtectedHeader({ alg, typ: 'JWT' })
    .setIssuer(config.issuer)
    .setAudience(config.audience)
    .setIssuedAt(iat);
  if (nbf !== undefined) jwt.setNotBefore(nbf);
  if (exp !== undefined) jwt.setExpirationTime(exp);
  return jwt.sign(key);
}
