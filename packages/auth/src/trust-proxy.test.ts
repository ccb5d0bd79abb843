import { describe, expect, it } from 'vitest';
import { clientAddress, parseTrustProxy, type TrustProxy } from './trust-proxy';

const request = (peer: string, forwardedFor?: string | string[]) => ({ peer, forwardedFor });
const clientAddressOf = (req: ReturnType<typeof request>, trust: TrustProxy) =>
  clientAddress(req.peer, req.forwardedFor, trust);

describe('TRUST_PROXY', () => {
  it('believes no one with none, and only this machine with loopback', () => {
    const none = parseTrustProxy('none');
    expect(clientAddressOf(request('127.0.0.1', '203.0.113.9'), none)).toBe('127.0.0.1');
    const loopback = parseTrustProxy('loopback');
    expect(clientAddressOf(request('127.0.0.1', '203.0.113.9'), loopback)).toBe('203.0.113.9');
    expect(clientAddressOf(request('::1', '203.0.113.9'), loopback)).toBe('203.0.113.9');
    expect(clientAddressOf(request('::ffff:127.0.0.1', '203.0.113.9'), loopback)).toBe('203.0.113.9');
    // A peer on another machine is the client, whatever it claims.
    expect(clientAddressOf(request('198.51.100.4', '203.0.113.9'), loopback)).toBe('198.51.100.4');
    expect(clientAddressOf(request('::ffff:198.51.100.4'), loopback)).toBe('198.51.100.4');
  });

  it('takes the right-most address that is not a trusted proxy (a balancer on another machine)', () => {
    const trust = parseTrustProxy('10.0.0.0/8, 192.0.2.10, 2001:db8::/32');
    // client -> balancer 10.1.2.3 -> us: the balancer appended the client.
    expect(clientAddressOf(request('10.1.2.3', '203.0.113.9'), trust)).toBe('203.0.113.9');
    // A client forging entries cannot pick its address: its forgery is left of the real one.
    expect(clientAddressOf(request('10.1.2.3', '1.1.1.1, 203.0.113.9'), trust)).toBe('203.0.113.9');
    // Two trusted hops (console 192.0.2.10 behind the balancer) are both skipped.
    expect(clientAddressOf(request('10.1.2.3', '203.0.113.9, 192.0.2.10'), trust)).toBe('203.0.113.9');
    expect(clientAddressOf(request('10.1.2.3', ['203.0.113.9', '10.9.9.9']), trust)).toBe('203.0.113.9');
    expect(clientAddressOf(request('2001:db8::1', '2001:db8::7, 2a00::1'), trust)).toBe('2a00::1');
    // Every hop trusted: the left-most one. No header: the peer.
    expect(clientAddressOf(request('10.1.2.3', '10.0.0.5, 10.0.0.6'), trust)).toBe('10.0.0.5');
    expect(clientAddressOf(request('10.1.2.3'), trust)).toBe('10.1.2.3');
    // Not trusted: 11.0.0.1 is outside 10/8, and a peer outside every range is itself.
    expect(clientAddressOf(request('11.0.0.1', '203.0.113.9'), trust)).toBe('11.0.0.1');
    expect(clientAddressOf(request('10.1.2.3', 'junk'), trust)).toBe('junk');
  });

  it('accepts loopback within a list, and refuses what it cannot read in one line', () => {
    const mixed = parseTrustProxy('loopback,172.16.0.0/12');
    expect(mixed.trusts('127.0.0.5')).toBe(true);
    expect(mixed.trusts('172.31.255.255')).toBe(true);
    expect(mixed.trusts('172.32.0.0')).toBe(false);
    for (const bad of ['10.0.0.0/33', 'example.com', '10.0.0.1/8/1', '::1/129', '10.0.0.0/x']) {
      expect(() => parseTrustProxy(bad)).toThrow(/^Invalid configuration: TRUST_PROXY entry/);
    }
  });
});
