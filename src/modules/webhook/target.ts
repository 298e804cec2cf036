import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

/** An address as a number: 32 bits for IPv4, 128 for IPv6. */
interface Address {
  bits: 32 | 128;
  value: bigint;
}

interface Range extends Address {
  prefix: number;
}

/**
 * Special-purpose ranges (IANA registries) a webhook must not reach unless the operator allows it
 * (WEBHOOK_ALLOW_PRIVATE): this network, private networks, shared (CGN) space, loopback, link-local,
 * IETF protocol assignments, benchmarking, unique-local, site-local, local-use NAT64, Teredo, SRv6.
 */
const PRIVATE = [
  '0.0.0.0/8', '10.0.0.0/8', '100.64.0.0/10', '127.0.0.0/8', '169.254.0.0/16', '172.16.0.0/12', '192.0.0.0/24', '192.168.0.0/16', '198.18.0.0/15',
  '::/128', '::1/128', 'fc00::/7', 'fe80::/10', 'fec0::/10', '64:ff9b:1::/48', '2001::/32', '2001:2::/48', '5f00::/16',
].map(range);

/** Documentation, multicast, reserved (with broadcast) and discard-only ranges: no webhook can reach them. */
const UNREACHABLE = [
  '192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24', '224.0.0.0/4', '240.0.0.0/4',
  '2001:db8::/32', '3fff::/20', '100::/64', 'ff00::/8',
].map(range);

/**
 * IPv6 ranges that carry an IPv4 address, with the bit offset of that address from the low end:
 * IPv4-mapped, IPv4-compatible, NAT64 (well-known prefix) and 6to4. The IPv4 address decides.
 */
const EMBEDDING: Array<[Range, number]> = [
  [range('::ffff:0:0/96'), 0],
  [range('::/96'), 0],
  [range('64:ff9b::/96'), 0],
  [range('2002::/16'), 80],
];

export interface TargetRules {
  /** PRODUCTION environments take https targets only. */
  httpsOnly: boolean;
  allowPrivate: boolean;
}

/** Resolves a host name to every address it has (the system resolver, unless a test gives its own). */
export type Resolve = (host: string) => Promise<Array<{ address: string; family: number }>>;

const systemResolve: Resolve = (host) => lookup(host, { all: true });

/** A target whose address was checked: connect to `address`, never to a fresh lookup of the name. */
export interface CheckedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

/**
 * Checks a webhook URL and resolves it. Every address the name resolves to must be public, or
 * private when allowed; documentation, multicast and reserved addresses are always refused.
 * Returns the reason it is refused, or the target.
 */
export async function checkTarget(targetUrl: string, rules: TargetRules, resolve: Resolve = systemResolve): Promise<CheckedTarget | { refused: string }> {
  let url: URL;
  try {
    url = new URL(targetUrl);
  } catch {
    return { refused: 'targetUrl is not a valid URL' };
  }
  if (url.protocol !== 'https:' && (rules.httpsOnly || url.protocol !== 'http:')) {
    return { refused: rules.httpsOnly ? 'targetUrl must use https in a PRODUCTION environment' : 'targetUrl must use https or http' };
  }
  if (url.username || url.password) return { refused: 'targetUrl must not carry credentials' };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: Array<{ address: string; family: number }>;
  try {
    addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await resolve(host);
  } catch {
    return { refused: `targetUrl's host ${host} does not resolve` };
  }
  for (const { address } of addresses) {
    const reach = reachOf(parse(address));
    if (reach === 'unreachable') return { refused: `targetUrl resolves to ${address}, a documentation, multicast or reserved address that cannot receive webhooks` };
    if (reach === 'private' && !rules.allowPrivate) return { refused: `targetUrl resolves to ${address}, a private, loopback, link-local or other non-public address` };
  }
  const [first] = addresses;
  if (!first) return { refused: `targetUrl's host ${host} does not resolve` };
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}

function reachOf(address: Address): 'public' | 'private' | 'unreachable' {
  if (UNREACHABLE.some((candidate) => contains(candidate, address))) return 'unreachable';
  if (PRIVATE.some((candidate) => contains(candidate, address))) return 'private';
  const embedding = EMBEDDING.find(([candidate]) => contains(candidate, address));
  return embedding ? reachOf({ bits: 32, value: (address.value >> BigInt(embedding[1])) & 0xffff_ffffn }) : 'public';
}

function contains(candidate: Range, address: Address): boolean {
  const shift = BigInt(candidate.bits - candidate.prefix);
  return candidate.bits === address.bits && address.value >> shift === candidate.value >> shift;
}

function range(cidr: string): Range {
  const [network, prefix] = cidr.split('/');
  return { ...parse(network!), prefix: Number(prefix) };
}

/** A valid IPv4 or IPv6 address (as `isIP` accepts, without a zone) as a number. */
function parse(address: string): Address {
  if (isIP(address) === 4) return { bits: 32, value: address.split('.').reduce((value, octet) => (value << 8n) | BigInt(octet), 0n) };
  // Eight 16-bit groups: a trailing dotted IPv4 is two of them, `::` stands for the missing ones.
  const dotted = /\d+\.\d+\.\d+\.\d+$/.exec(address);
  const ipv4 = dotted ? parse(dotted[0]).value : undefined;
  const text = ipv4 === undefined ? address : `${address.slice(0, dotted!.index)}${(ipv4 >> 16n).toString(16)}:${(ipv4 & 0xffffn).toString(16)}`;
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return { bits: 128, value: groups.reduce((value, group) => (value << 16n) | BigInt(`0x${group}`), 0n) };
}
