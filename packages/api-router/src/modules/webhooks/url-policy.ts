import { lookup as dnsLookup } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Where a webhook may be sent. A URL is checked when the webhook is made or changed, and every
 * address its host resolves to is checked again as each delivery connects (`guardedLookup`), so
 * a name that later resolves elsewhere (DNS rebinding) reaches no refused address.
 */
export interface UrlPolicy {
  /** `http:` URLs too (WEBHOOK_ALLOW_HTTP); otherwise `https:` only. */
  allowHttp: boolean;
  /** Loopback and private addresses too (WEBHOOK_ALLOW_PRIVATE), never link-local or metadata. */
  allowPrivate: boolean;
}

type Subnet = readonly [address: string, prefix: number, family: 'ipv4' | 'ipv6'];

function blockList(subnets: readonly Subnet[]): BlockList {
  const list = new BlockList();
  for (const [address, prefix, family] of subnets) list.addSubnet(address, prefix, family);
  return list;
}

/** Refused whatever the settings: link-local and cloud metadata, and what is no host at all. */
const NEVER = blockList([
  ['0.0.0.0', 8, 'ipv4'], // "this network": the host itself on some systems
  ['169.254.0.0', 16, 'ipv4'], // link-local, cloud metadata (169.254.169.254)
  ['224.0.0.0', 4, 'ipv4'], // multicast
  ['240.0.0.0', 4, 'ipv4'], // reserved, and the broadcast address
  ['::', 128, 'ipv6'], // unspecified
  ['fe80::', 10, 'ipv6'], // link-local
  ['ff00::', 8, 'ipv6'], // multicast
  ['fd00:ec2::254', 128, 'ipv6'], // cloud metadata over IPv6
]);

/** Refused unless WEBHOOK_ALLOW_PRIVATE: this machine and private networks. */
const PRIVATE = blockList([
  ['127.0.0.0', 8, 'ipv4'],
  ['10.0.0.0', 8, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'], // carrier-grade NAT, often a provider's internal network
  ['198.18.0.0', 15, 'ipv4'], // benchmarking networks
  ['::1', 128, 'ipv6'],
  ['fc00::', 7, 'ipv6'], // unique local addresses
]);

/**
 * The IPv4 address an IPv6 one carries to an IPv4 host (NAT64's 64:ff9b::/96, 6to4's 2002::/16),
 * checked as that address: `64:ff9b::169.254.169.254` reaches the metadata service through a
 * NAT64 gateway. (IPv4-mapped `::ffff:a.b.c.d` the block lists already check as IPv4.)
 */
function embeddedIpv4(address: string): string | undefined {
  const groups = expandIpv6(address);
  if (!groups) return undefined;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  const nat64 = groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((g) => g === 0);
  if (nat64) return v4(groups[6]!, groups[7]!);
  if (groups[0] === 0x2002) return v4(groups[1]!, groups[2]!);
  return undefined;
}

/** An IPv6 address as its eight 16-bit groups (a dotted IPv4 tail included), or undefined. */
function expandIpv6(address: string): number[] | undefined {
  if (isIP(address) !== 6) return undefined;
  let text = address.split('%')[0]!.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -dotted[1]!.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const parse = (part: string | undefined) =>
    part ? part.split(':').map((g) => Number.parseInt(g, 16)) : [];
  const first = parse(head);
  const last = parse(tail);
  const zeros = tail === undefined ? [] : Array<number>(8 - first.length - last.length).fill(0);
  const groups = [...first, ...zeros, ...last];
  return groups.length === 8 ? groups : undefined;
}

/** Why `address` may not be connected to under `policy`, or undefined when it may. */
export function addressRefusal(address: string, policy: UrlPolicy): string | undefined {
  const family = isIP(address);
  if (family === 0) return `${address} is not an IP address`;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  const embedded = type === 'ipv6' ? embeddedIpv4(address) : undefined;
  const hits = (list: BlockList) =>
    list.check(address, type) || (embedded !== undefined && list.check(embedded, 'ipv4'));
  if (hits(NEVER)) return `${address} is a link-local, metadata or reserved address: webhooks never go there`;
  if (!policy.allowPrivate && hits(PRIVATE)) {
    return `${address} is a loopback or private address (WEBHOOK_ALLOW_PRIVATE is off)`;
  }
  return undefined;
}

/** Resolves a host name to every address it has (the system's resolver, as connecting would). */
export type Resolve = (host: string) => Promise<Array<{ address: string; family: number }>>;

const systemResolve: Resolve = (host) =>
  new Promise((resolve, reject) =>
    dnsLookup(host, { all: true, verbatim: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    ),
  );

/**
 * The URL, or why it is refused: its scheme, credentials in it, a host that does not resolve, or
 * any address it resolves to that the policy refuses (all of them are checked: a client may
 * connect to any).
 */
export async function checkWebhookUrl(
  raw: string,
  policy: UrlPolicy,
  resolve: Resolve = systemResolve,
): Promise<{ url: URL } | { refusal: string }> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { refusal: 'Not a URL' };
  }
  const schemes = policy.allowHttp ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) {
    return { refusal: policy.allowHttp ? 'Must be an https: or http: URL' : 'Must be an https: URL' };
  }
  if (url.username !== '' || url.password !== '')
    return { refusal: 'Must not carry a user name or password' };
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  let addresses: Array<{ address: string }>;
  if (isIP(host) !== 0) addresses = [{ address: host }];
  else {
    try {
      addresses = await resolve(host);
    } catch {
      return { refusal: `The host ${host} does not resolve` };
    }
    if (addresses.length === 0) return { refusal: `The host ${host} does not resolve` };
  }
  for (const { address } of addresses) {
    const refusal = addressRefusal(address, policy);
    if (refusal) return { refusal };
  }
  return { url };
}

/**
 * A `lookup` for `http.request` at delivery: resolves as the system does and refuses to connect
 * when any address is refused, so what was checked at creation is what is connected to now.
 */
export function guardedLookup(policy: UrlPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true, verbatim: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      for (const { address } of addresses) {
        const refusal = addressRefusal(address, policy);
        if (refusal) return callback(Object.assign(new Error(refusal), { code: 'EREFUSED_ADDRESS' }), '', 0);
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first)
        return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
      callback(null, first.address, first.family);
    });
  };
}
