import { describe, expect, it } from 'vitest';
import { apiKeyMatches, apiKeyPrefix, generateApiKeyToken, isApiKeyToken } from './api-keys';
import { hashToken } from './tokens';

describe('API key tokens', () => {
  it('are mc_ and 40 base64url characters, found by a 12-character prefix, stored as a SHA-256', () => {
    const key = generateApiKeyToken();
    expect(key.token).toMatch(/^mc_[A-Za-z0-9_-]{40}$/);
    expect(key.prefix).toBe(key.token.slice(0, 12));
    expect(key.hash).toBe(hashToken(key.token));
    expect(key.hash).not.toContain(key.token);
    expect(generateApiKeyToken().token).not.toBe(key.token);
  });

  it('match only the token they were made from', () => {
    const key = generateApiKeyToken();
    expect(apiKeyMatches(key.token, key.hash)).toBe(true);
    const other = `${key.token.slice(0, -1)}${key.token.endsWith('A') ? 'B' : 'A'}`;
    expect(apiKeyMatches(other, key.hash)).toBe(false);
    expect(apiKeyMatches(key.token, 'not hex')).toBe(false);
  });

  it('have a prefix only when well formed, and are told from access tokens by their mark', () => {
    const { token } = generateApiKeyToken();
    expect(apiKeyPrefix(token)).toBe(token.slice(0, 12));
    expect(apiKeyPrefix(`${token}x`)).toBeUndefined();
    expect(apiKeyPrefix('mc_short')).toBeUndefined();
    expect(apiKeyPrefix(`mc_${'!'.repeat(40)}`)).toBeUndefined();
    expect(isApiKeyToken(token)).toBe(true);
    expect(isApiKeyToken('eyJhbGciOiJIUzI1NiJ9.e30.x')).toBe(false);
  });
});
