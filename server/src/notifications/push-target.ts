import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Where the server may send a web push (item "web push is a blind SSRF"): a push endpoint is a URL
 * the browser hands us, so without this check any student could make the server POST to its own
 * loopback ports, the private network or the cloud metadata service. Only public unicast addresses
 * pass; loopback passes too when PUSH_ALLOW_HTTP_ENDPOINTS is on (local testing talks to a push
 * service on 127.0.0.1), nothing else internal ever does.
 */
export interface TargetPolicy {
  allowLoopback: boolean;
}

// Two lists: BlockList also matches a plain IPv4 address against an IPv6 ::ffff:0:0/96 rule, which
// would refuse every IPv4 address.
const internalV4 = new BlockList();
const internalV6 = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // unspecified, "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking, used inside networks
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  internalV4.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 96], // unspecified, loopback (::1), IPv4-compatible
  ['::ffff:0:0', 96], // IPv4-mapped: a v4 address in v6 clothes is never a push service
  ['64:ff9b::', 96], // NAT64 (embeds any v4 address)
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard
  ['2001::', 32], // Teredo (embeds a v4 address)
  ['2002::', 16], // 6to4 (embeds a v4 address)
  ['fc00::', 7], // unique-local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const)
  internalV6.addSubnet(network, prefix, 'ipv6');

const loopback = new BlockList();
// BlockList matches an IPv4 rule against the IPv4-mapped form too (::ffff:127.0.0.1).
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** Why a push endpoint cannot be used. */
export class PushTargetError extends Error {
  constructor(
    readonly reason: 'internal' | 'unresolvable' | 'unavailable',
    message: string,
  ) {
    super(message);
  }
}

/** Whether the server may connect to this IP address. */
export function addressAllowed(address: string, policy: TargetPolicy): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (policy.allowLoopback && loopback.check(address, type)) return true;
  return family === 4 ? !internalV4.check(address, 'ipv4') : !internalV6.check(address, 'ipv6');
}

/** The URL's host as a bare IP address when it is one (`[::1]` → `::1`), else null. */
export function literalAddress(hostname: string): string | null {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) === 0 ? null : bare;
}

/** getaddrinfo has no timeout of its own; a hung resolver must not hang a request or a job. */
const LOOKUP_TIMEOUT_MS = 5_000;

function lookupAll(hostname: string, family: number | undefined): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new PushTargetError('unavailable', `looking up ${hostname} timed out`)),
      LOOKUP_TIMEOUT_MS,
    );
    dnsLookup(hostname, { all: true, verbatim: true, family: family ?? 0 }, (err, addresses) => {
      clearTimeout(timer);
      if (!err) return resolve(addresses);
      const gone = err.code === 'ENOTFOUND' || err.code === 'ENODATA';
      reject(new PushTargetError(gone ? 'unresolvable' : 'unavailable', err.message));
    });
  });
}

/**
 * Every address the host has, each checked: one internal address refuses the host (a name that
 * answers both a public and a private address would otherwise be a coin toss).
 */
export async function resolveAllowed(
  hostname: string,
  policy: TargetPolicy,
  family?: number,
): Promise<LookupAddress[]> {
  // RFC 6761: localhost and *.localhost are loopback whatever a resolver says.
  if (!policy.allowLoopback && /(^|\.)localhost\.?$/i.test(hostname))
    throw new PushTargetError('internal', `${hostname} is loopback`);
  const literal = literalAddress(hostname);
  const addresses = literal
    ? [{ address: literal, family: isIP(literal) }]
    : await lookupAll(hostname, family);
  if (addresses.length === 0) throw new PushTargetError('unresolvable', `${hostname} has no address`);
  const bad = addresses.find((a) => !addressAllowed(a.address, policy));
  if (bad) throw new PushTargetError('internal', `${hostname} resolves to ${bad.address}`);
  return addresses;
}

/**
 * A `lookup` for http(s).request that resolves, checks and hands the socket exactly the addresses
 * it checked: a name that answered a public address at subscribe time and 127.0.0.1 now (DNS
 * rebinding) is refused here, with no second lookup between the check and the connect.
 */
export function guardedLookup(policy: TargetPolicy): LookupFunction {
  return (hostname: string, options: LookupOptions, callback) => {
    resolveAllowed(hostname, policy, typeof options.family === 'number' ? options.family : undefined).then(
      (addresses) => {
        const first = addresses[0]!;
        if (options.all) callback(null, addresses);
        else callback(null, first.address, first.family);
      },
      (err: PushTargetError) => callback(Object.assign(err, { code: 'EPUSHTARGET' }), ''),
    );
  };
}
