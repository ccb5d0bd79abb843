import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, newNonce, overHttps } from './security-headers';

function directives(policy: string): Map<string, string> {
  return new Map(
    policy.split(';').map((directive) => {
      const [name, ...values] = directive.trim().split(/\s+/);
      return [name!, values.join(' ')];
    }),
  );
}

describe('the Content-Security-Policy', () => {
  it('allows scripts from the console and with the nonce only, and no framing', () => {
    const policy = directives(contentSecurityPolicy('abc123', false));
    expect(policy.get('script-src')).toBe("'self' 'nonce-abc123'");
    expect(policy.get('frame-ancestors')).toBe("'none'");
    expect(policy.get('object-src')).toBe("'none'");
    expect(policy.get('base-uri')).toBe("'self'");
    expect(policy.get('form-action')).toBe("'self'");
    expect(policy.get('connect-src')).toBe("'self'");
  });

  it('never allows inline scripts without the nonce; eval only in development', () => {
    for (const development of [false, true]) {
      expect(directives(contentSecurityPolicy('n', development)).get('script-src')).not.toContain(
        'unsafe-inline',
      );
    }
    expect(contentSecurityPolicy('n', false)).not.toContain('unsafe-eval');
    expect(directives(contentSecurityPolicy('n', true)).get('script-src')).toBe(
      "'self' 'nonce-n' 'unsafe-eval'",
    );
  });

  it('gets a new, unguessable nonce every time', () => {
    const nonces = new Set(Array.from({ length: 50 }, newNonce));
    expect(nonces.size).toBe(50);
    for (const nonce of nonces) expect(Buffer.from(nonce, 'base64')).toHaveLength(16);
  });
});

describe('HSTS: only over HTTPS', () => {
  const request = (url: string, headers: Record<string, string> = {}) => ({
    nextUrl: new URL(url),
    headers: new Headers(headers),
  });

  it('over HTTPS, directly or as a trusted proxy reports it', () => {
    expect(overHttps(request('https://console.example/songs'))).toBe(true);
    expect(overHttps(request('http://console.example/songs', { 'x-forwarded-proto': 'https' }))).toBe(true);
  });

  it('not over plain http', () => {
    expect(overHttps(request('http://console.example/songs'))).toBe(false);
    expect(overHttps(request('http://console.example/songs', { 'x-forwarded-proto': 'http' }))).toBe(false);
  });
});
