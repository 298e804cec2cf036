import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** Addresses a webhook must not reach unless the operator allows it (WEBHOOK_ALLOW_PRIVATE). */
const PRIVATE = new BlockList();
for (const [network, prefix] of [['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.168.0.0', 16]] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['::ffff:0:0', 96]] as const) PRIVATE.addSubnet(network, prefix, 'ipv6');

export interface TargetRules {
  /** PRODUCTION environments take https targets only. */
  httpsOnly: boolean;
  allowPrivate: boolean;
}

/** A target whose address was checked: connect to `address`, never to a fresh lookup of the name. */
export interface CheckedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

/**
 * Checks a webhook URL and resolves it, refusing private, loopback and link-local addresses (every
 * address the name resolves to) unless allowed. Returns the reason it is refused, or the target.
 */
export async function checkTarget(targetUrl: string, rules: TargetRules): Promise<CheckedTarget | { refused: string }> {
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
    addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host, { all: true });
  } catch {
    return { refused: `targetUrl's host ${host} does not resolve` };
  }
  if (!rules.allowPrivate) {
    const blocked = addresses.find(({ address, family }) => PRIVATE.check(address, family === 6 ? 'ipv6' : 'ipv4'));
    if (blocked) return { refused: `targetUrl resolves to ${blocked.address}, a private, loopback or link-local address` };
  }
  const [first] = addresses;
  if (!first) return { refused: `targetUrl's host ${host} does not resolve` };
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
