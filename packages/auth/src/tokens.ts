import {
  createHash,
  createHmac,
  createSecretKey,
  type KeyObject,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';
import { type JWTPayload, jwtVerify } from 'jose';

export const ACCESS_TOKEN_TTL_SECONDS = 24 * 60 * 60;
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;
export const MIN_SECRET_BYTES = 32;

export interface AccessClaims {
  sub: string;
  role: string;
  sid: string;
  iat: number;
  exp: number;
}

export interface TokenConfig {
  /** Signs new tokens (and verifies them). */
  secret: string | Uint8Array;
  /** Still accepted when verifying: keys being rotated out (or, before a rotation, in). */
  previousSecrets?: ReadonlyArray<string | Uint8Array> | undefined;
  issuer: string;
  audience: string;
  /** Lifetime of an access token; ACCESS_TOKEN_TTL_SECONDS (24 h) by default. */
  accessTokenTtlSeconds?: number | undefined;
}

/** Thrown for every token that must not be accepted; the transport answers 401. */
export class InvalidTokenError extends Error {
  override name = 'InvalidTokenError';
}

const ALGORITHM = 'HS256';
const TYPE = 'JWT';

/**
 * A key's id (`kid`): derived from the key, so every instance configured with the same key
 * names it the same way, and one-way, so it tells nothing about the key.
 */
export function keyId(secret: string | Uint8Array): string {
  return createHash('sha256')
    .update('music-catalogue jwt kid\0')
    .update(secretBytes(secret))
    .digest('base64url')
    .slice(0, 16);
}

interface VerificationKey {
  kid: string;
  key: KeyObject;
}

export function secretBytes(secret: string | Uint8Array): Uint8Array {
  return typeof secret === 'string' ? new TextEncoder().encode(secret) : secret;
}

/**
 * Signs and verifies access tokens (HS256 JWTs).
 *
 * Signing and verification are done here with node's synchronous HMAC: jose verifies
 * through WebCrypto, which cost 140-270 us per token on this machine class against ~10 us for
 * this path, and verification runs on every request. It pins everything RFC 8725 asks for:
 * the header must be exactly `{"alg":"HS256","typ":"JWT","kid":…}` naming a configured key, or
 * the same without `kid` (tokens signed before keys had ids), so `alg: none` and HS512 signed
 * with our secret are refused; the signature is compared in constant time, and issuer,
 * audience, `exp` (required), `nbf` (if present), `iat` and the claim types are checked.
 * tokens.test.ts checks it against jose's own verifier on valid and hostile tokens.
 */
export function createTokenService(config: TokenConfig) {
  const keys: VerificationKey[] = [config.secret, ...(config.previousSecrets ?? [])].map((secret) => {
    const bytes = secretBytes(secret);
    if (bytes.byteLength < MIN_SECRET_BYTES) {
      throw new Error(`The JWT secret must be at least ${MIN_SECRET_BYTES} bytes long`);
    }
    return { kid: keyId(bytes), key: createSecretKey(bytes) };
  });
  const signing = keys[0] as VerificationKey;
  const byKid = new Map(keys.map((k) => [k.kid, k.key]));
  const ttl = config.accessTokenTtlSeconds ?? ACCESS_TOKEN_TTL_SECONDS;
  const encodedHeader = Buffer.from(JSON.stringify({ alg: ALGORITHM, typ: TYPE, kid: signing.kid })).toString(
    'base64url',
  );

  /**
   * Signs with node's synchronous HMAC, like verification below (jose signs through WebCrypto:
   * a few hundred microseconds per sign-in). The header is exactly the one verification pins;
   * tokens.test.ts checks jose's verifier accepts what this writes.
   */
  function signAccessTokenSync(claims: { sub: string; role: string; sid: string }, now = Date.now()): string {
    const iat = Math.floor(now / 1000);
    const payload = {
      role: claims.role,
      sid: claims.sid,
      sub: claims.sub,
      iss: config.issuer,
      aud: config.audience,
      iat,
      exp: iat + ttl,
    };
    const signingInput = `${encodedHeader}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
    return `${signingInput}.${createHmac('sha256', signing.key).update(signingInput).digest('base64url')}`;
  }

  async function signAccessToken(claims: { sub: string; role: string; sid: string }, now = Date.now()) {
    return signAccessTokenSync(claims, now);
  }

  /**
   * Tokens whose signature and claims were verified, by their exact text: a client sends the
   * same token with every request, and a signature that was valid stays valid. A hit still
   * checks `exp` and `nbf` against `now`; revocation is the session check's job (every request,
   * in the database), never this cache's. Bounded; the oldest entry goes first.
   */
  const verified = new Map<string, { claims: AccessClaims; nbf: number | undefined }>();

  function verifyAccessTokenSync(token: string, now = Date.now()): AccessClaims {
    const reject = (reason: string): never => {
      throw new InvalidTokenError(`Access token rejected (${reason})`);
    };
    const hit = typeof token === 'string' ? verified.get(token) : undefined;
    if (hit) {
      const seconds = Math.floor(now / 1000);
      if (hit.claims.exp <= seconds) {
        verified.delete(token);
        reject('expired');
      }
      if (hit.nbf !== undefined && hit.nbf > seconds) reject('not yet valid');
      return hit.claims;
    }
    const claims = verifyUncached(token, now, reject);
    if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value as string);
    verified.set(token, { claims, nbf: claimsNbf(token) });
    return claims;
  }

  function verifyUncached(token: string, now: number, reject: (reason: string) => never): AccessClaims {
    if (typeof token !== 'string' || token.length > 4096) reject('malformed');
    const parts = token.split('.');
    if (parts.length !== 3) reject('malformed');
    const [encodedHeader, encodedPayload, encodedSignature] = parts as [string, string, string];
    const header = decodeJson(encodedHeader) ?? reject('malformed header');
    const headerKeys = Object.keys(header);
    // A `kid` picks the key; tokens signed before keys had ids carry none and are tried
    // against every key (there are one or two).
    const hasKid = 'kid' in header;
    if (header.alg !== ALGORITHM || header.typ !== TYPE || headerKeys.length !== (hasKid ? 3 : 2))
      reject('unexpected header');
    let candidates: KeyObject[];
    if (hasKid) {
      const key = typeof header.kid === 'string' ? byKid.get(header.kid) : undefined;
      candidates = key ? [key] : reject('unknown key id');
    } else {
      candidates = keys.map((k) => k.key);
    }
    if (!BASE64URL.test(encodedSignature)) reject('malformed signature');
    const given = Buffer.from(encodedSignature, 'base64url');
    // One token, one text: a lenient decoder also takes the last character with its spare bits
    // set, which would let anyone respell a valid token (RFC 4648 section 3.5 allows refusing it).
    if (given.toString('base64url') !== encodedSignature) reject('non-canonical signature');
    const signed = candidates.some((key) => {
      const expected = createHmac('sha256', key).update(`${encodedHeader}.${encodedPayload}`).digest();
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
    if (!signed) reject('bad signature');

    const payload = decodeJson(encodedPayload) ?? reject('malformed payload');
    const { sub, sid, role, iat, exp, nbf, iss, aud } = payload;
    if (typeof sub !== 'string' || typeof sid !== 'string' || typeof role !== 'string') reject('claims');
    if (!Number.isFinite(iat) || !Number.isFinite(exp)) reject('claims');
    if (iss !== config.issuer) reject('issuer');
    if (!(aud === config.audience || (Array.isArray(aud) && aud.includes(config.audience))))
      reject('audience');
    const seconds = Math.floor(now / 1000);
    if ((exp as number) <= seconds) reject('expired');
    if (nbf !== undefined && (!Number.isFinite(nbf) || (nbf as number) > seconds)) reject('not yet valid');
    return Object.freeze({
      sub: sub as string,
      sid: sid as string,
      role: role as string,
      iat: iat as number,
      exp: exp as number,
    });
  }

  /** The reference verifier (jose), with the signing key: tests check the fast path agrees with it. */
  async function verifyWithJose(token: string): Promise<JWTPayload> {
    const { payload } = await jwtVerify(token, signing.key, {
      algorithms: [ALGORITHM],
      issuer: config.issuer,
      audience: config.audience,
      typ: TYPE,
      requiredClaims: ['sub', 'sid', 'role', 'iat', 'exp'],
    });
    return payload;
  }

  return {
    /** The lifetime of the access tokens this service signs (the token response's `expiresIn`). */
    accessTokenTtlSeconds: ttl,
    signAccessToken,
    signAccessTokenSync,
    verifyAccessTokenSync,
    verifyAccessToken: async (token: string) => verifyAccessTokenSync(token),
    verifyWithJose,
  };
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;
const VERIFIED_CACHE_SIZE = 10_000;

/** The `nbf` of a token that has just been verified (so its payload decodes). */
function claimsNbf(token: string): number | undefined {
  const nbf = decodeJson(token.split('.')[1] ?? '')?.nbf;
  return typeof nbf === 'number' ? nbf : undefined;
}

function decodeJson(segment: string): Record<string, unknown> | undefined {
  if (!BASE64URL.test(segment)) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

export type TokenService = ReturnType<typeof createTokenService>;

/** An opaque refresh token: 256 random bits, URL-safe. Only its hash is ever stored. */
export function generateRefreshToken(): string {
  return randomBytes(32).toString('base64url');
}

/** SHA-256 is enough for high-entropy random tokens (no slow hash needed, unlike passwords). */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A fresh signing secret for a data folder that has none yet. */
export function generateSecret(): string {
  return randomBytes(48).toString('base64url');
}

/** Extracts the token from `Authorization: Bearer <token>`; undefined when absent or malformed. */
export function parseBearer(header: string | null | undefined): string | undefined {
  // Real tokens are a few hundred bytes; refusing huge ones early keeps garbage off the verifier.
  if (!header || header.length > 4096) return undefined;
  const match = /^Bearer[ \t]+([A-Za-z0-9._~+/=-]+)[ \t]*$/i.exec(header);
  return match?.[1];
}
