import type { IncomingHttpHeaders } from 'node:http';
import { parseTrustProxy } from '@music/auth/trust-proxy';
import { describe, expect, it } from 'vitest';
import { rewriteForwardedHeaders } from './forwarded';

function rewritten(headers: IncomingHttpHeaders, peer: string, trustProxy: string): IncomingHttpHeaders {
  const copy = { ...headers };
  rewriteForwardedHeaders(copy, peer, parseTrustProxy(trustProxy));
  return copy;
}

const SPOOFED = {
  host: 'console.example',
  'x-forwarded-for': '198.51.100.7, 203.0.113.9',
  'x-forwarded-host': 'evil.example',
  'x-forwarded-proto': 'https',
  'x-forwarded-port': '443',
};

describe('the forwarding headers Next sees', () => {
  it('from a peer it does not trust: the peer’s own address, whatever the request said', () => {
    expect(rewritten(SPOOFED, '192.0.2.44', 'none')).toEqual({
      host: 'console.example',
      'x-forwarded-for': '192.0.2.44',
    });
    // The default trusts no one, a loopback peer included.
    expect(rewritten(SPOOFED, '127.0.0.1', 'none')['x-forwarded-for']).toBe('127.0.0.1');
    // Trusting a balancer does not make another peer one.
    expect(rewritten(SPOOFED, '192.0.2.44', '10.0.0.0/8')['x-forwarded-for']).toBe('192.0.2.44');
  });

  it('a dual-stack socket’s IPv4 peer is named as IPv4', () => {
    expect(rewritten({}, '::ffff:192.0.2.44', 'none')['x-forwarded-for']).toBe('192.0.2.44');
  });

  it('an untrusted peer’s X-Forwarded-Host, -Proto and -Port are dropped', () => {
    const headers = rewritten(SPOOFED, '192.0.2.44', 'loopback');
    expect(headers).not.toHaveProperty('x-forwarded-proto');
    expect(headers).not.toHaveProperty('x-forwarded-host');
    expect(headers).not.toHaveProperty('x-forwarded-port');
  });

  it('from a trusted proxy: the right-most entry it does not trust, and its other headers kept', () => {
    const headers = rewritten(
      { ...SPOOFED, 'x-forwarded-for': '198.51.100.7, 203.0.113.9, 10.0.0.3' },
      '10.0.0.2',
      '10.0.0.0/8',
    );
    expect(headers['x-forwarded-for']).toBe('203.0.113.9');
    expect(headers['x-forwarded-proto']).toBe('https');
    expect(headers['x-forwarded-host']).toBe('evil.example');
    // A trusted proxy that reports nothing: its own address.
    expect(rewritten({}, '10.0.0.2', '10.0.0.0/8')['x-forwarded-for']).toBe('10.0.0.2');
  });
});
