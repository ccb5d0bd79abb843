export {
  API_KEY_MARK,
  apiKeyMatches,
  apiKeyPrefix,
  generateApiKeyToken,
  isApiKeyToken,
  type NewApiKeyToken,
} from './api-keys';
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
