export { hashPassword, verifyPassword } from './password';
export {
  ACCESS_TOKEN_TTL_SECONDS,
  type AccessClaims,
  createTokenService,
  generateRefreshToken,
  generateSecret,
  hashToken,
  InvalidTokenError,
  keyId,
  MIN_SECRET_BYTES,
  parseBearer,
  REFRESH_TOKEN_TTL_SECONDS,
  type TokenConfig,
  type TokenService,
} from './tokens';
