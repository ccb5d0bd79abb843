import { randomBytes, timingSafeEqual } from 'node:crypto';
import { hashToken } from './tokens';

/**
 * API key tokens: `mc_` and 40 characters of base64url (30 random bytes, 240 bits). The first
 * 12 characters (`mc_` and 9 more) are the key's prefix: stored in clear, unique, shown in
 * listings so people can tell their keys apart, and what a request's key is found by. The whole
 * token is stored only as its SHA-256 (a random 240-bit secret needs no slow hash: there is
 * nothing to guess from a dictionary).
 */
export const API_KEY_MARK = 'mc_';
const TOKEN = /^mc_[A-Za-z0-9_-]{40}$/;
const PREFIX_LENGTH = 12;

export interface NewApiKeyToken {
  token: string;
  prefix: string;
  hash: string;
}

export function generateApiKeyToken(): NewApiKeyToken {
  const token = API_KEY_MARK + randomBytes(30).toString('base64url');
  return { token, prefix: token.slice(0, PREFIX_LENGTH), hash: hashToken(token) };
}

/** Whether a bearer token is an API key (rather than an access token): by its mark alone. */
export function isApiKeyToken(token: string): boolean {
  return token.startsWith(API_KEY_MARK);
}

/** The prefix of a well-formed key token, or undefined. */
export function apiKeyPrefix(token: string): string | undefined {
  return TOKEN.test(token) ? token.slice(0, PREFIX_LENGTH) : undefined;
}

/** Whether `token` is the key stored as `hash`, in constant time. */
export function apiKeyMatches(token: string, hash: string): boolean {
  const given = Buffer.from(hashToken(token), 'hex');
  const stored = Buffer.from(hash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}
