import { NextRequest } from 'next/server';
import { describe, expect, it } from 'vitest';
import { proxy } from './proxy';

const SIGNED_IN = { cookie: 'mc_access=token' };
const get = (url: string, headers: Record<string, string> = {}) => proxy(new NextRequest(url, { headers }));
const nonceOf = (policy: string | null) => /'nonce-([^']+)'/.exec(policy ?? '')?.[1];

describe('proxy: the policy on every answer', () => {
  it('hands Next the same policy it answers with, a new nonce each time', () => {
    const first = get('http://console.test/songs', SIGNED_IN);
    const policy = first.headers.get('content-security-policy');
    expect(policy).toContain("frame-ancestors 'none'");
    expect(nonceOf(policy)).toBeTruthy();
    // What Next reads the nonce from: the request's copy of the policy.
    expect(first.headers.get('x-middleware-request-content-security-policy')).toBe(policy);
    const second = get('http://console.test/songs', SIGNED_IN);
    expect(nonceOf(second.headers.get('content-security-policy'))).not.toBe(nonceOf(policy));
  });

  it('covers the pages open to everyone and the redirect to sign-in', () => {
    for (const path of ['/sign-in', '/sign-up', '/forgot-password', '/reset-password', '/no-such-page']) {
      const res = get(`http://console.test${path}`, path === '/no-such-page' ? SIGNED_IN : {});
      expect(res.headers.get('location'), path).toBeNull();
      expect(res.headers.get('content-security-policy'), path).toContain("script-src 'self' 'nonce-");
    }
    const redirect = get('http://console.test/playlists?page=2');
    expect(redirect.status).toBe(307);
    expect(redirect.headers.get('location')).toBe('http://console.test/sign-in?next=%2Fplaylists%3Fpage%3D2');
    expect(redirect.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it('sends HSTS over HTTPS only', () => {
    expect(get('https://console.test/songs', SIGNED_IN).headers.get('strict-transport-security')).toBe(
      'max-age=31536000',
    );
    expect(
      get('http://console.test/sign-in', { 'x-forwarded-proto': 'https' }).headers.get(
        'strict-transport-security',
      ),
    ).toBe('max-age=31536000');
    expect(get('http://console.test/songs', SIGNED_IN).headers.has('strict-transport-security')).toBe(false);
    expect(get('http://console.test/songs').headers.has('strict-transport-security')).toBe(false);
  });
});
