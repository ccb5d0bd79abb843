import { BlockList, isIP } from 'node:net';

/**
 * Whose word on a caller's address to believe. A proxy in front of a server (a balancer, the
 * console's server in front of the API) reports the address it saw in `X-Forwarded-For`; only the
 * peers named in TRUST_PROXY may do so: `none`, `loopback` (a proxy on this machine), or a list of
 * addresses and CIDR ranges (`loopback` may appear in the list too). The API and the console both
 * read their TRUST_PROXY with this module, so the setting has one syntax.
 */
export interface TrustProxy {
  /** The setting as configured, for the start-up log. */
  readonly description: string;
  trusts(address: string): boolean;
}

const LOOPBACK_RANGES: Array<[string, number, 'ipv4' | 'ipv6']> = [
  ['127.0.0.0', 8, 'ipv4'],
  ['::1', 128, 'ipv6'],
];

/** Parses TRUST_PROXY; throws a one-line error naming the entry it cannot read. */
export function parseTrustProxy(setting: string): TrustProxy {
  const description = setting.trim() || 'none';
  const list = new BlockList();
  let any = false;
  for (const raw of description.split(',')) {
    const entry = raw.trim();
    if (entry === '' || entry === 'none') continue;
    any = true;
    if (entry === 'loopback') {
      for (const [network, prefix, type] of LOOPBACK_RANGES) list.addSubnet(network, prefix, type);
      continue;
    }
    const [address, prefixText, extra] = entry.split('/');
    const family = isIP(address ?? '');
    const prefix = prefixText === undefined ? (family === 6 ? 128 : 32) : Number(prefixText);
    if (
      family === 0 ||
      extra !== undefined ||
      !Number.isInteger(prefix) ||
      prefix < 0 ||
      prefix > (family === 6 ? 128 : 32) ||
      (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText))
    ) {
      throw new Error(
        `Invalid configuration: TRUST_PROXY entry "${entry}" is not loopback, none, an IP address or a CIDR range`,
      );
    }
    list.addSubnet(address as string, prefix, family === 6 ? 'ipv6' : 'ipv4');
  }
  return {
    description,
    trusts(address: string) {
      if (!any) return false;
      const plain = unmapped(address);
      const family = isIP(plain);
      return family !== 0 && list.check(plain, family === 6 ? 'ipv6' : 'ipv4');
    },
  };
}

/** `::ffff:10.0.0.1` (an IPv4 peer on a dual-stack socket) is the IPv4 address it carries. */
export function unmapped(address: string): string {
  const match = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return match ? (match[1] as string) : address;
}

/**
 * The client's address: the peer itself, unless the peer is a trusted proxy; then the right-most
 * `X-Forwarded-For` entry that is not itself a trusted proxy (every proxy appends the address it
 * saw, so entries left of the first untrusted one could have been written by the client). When
 * every entry is trusted, the left-most one.
 */
export function clientAddress(
  peerAddress: string,
  forwardedFor: string | string[] | undefined,
  trust: TrustProxy,
): string {
  const peer = unmapped(peerAddress);
  if (!trust.trusts(peer)) return peer;
  if (forwardedFor === undefined) return peer;
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor)
    .split(',')
    .map((hop) => unmapped(hop.trim()))
    .filter((hop) => hop !== '');
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i] as string;
    // Not an address (`unknown`, or junk a proxy passed on): untrusted, and kept short.
    if (!trust.trusts(hop)) return hop.slice(0, 64);
  }
  return hops[0] ?? peer;
}
