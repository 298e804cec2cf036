import { isIP } from 'node:net';

/**
 * Whether `url`'s host is this machine as only this machine sees it: `localhost` (and its
 * subdomains), a loopback address (127.0.0.0/8, ::1, IPv4-mapped loopback) or the unspecified
 * address. Nothing outside can reach such a URL.
 */
export function isLoopbackUrl(url: string): boolean {
  const host = new URL(url).hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.') || host === '0.0.0.0';
  // WHATWG URLs print IPv6 compressed and IPv4-mapped in hex: ::ffff:127.0.0.1 is ::ffff:7f00:1.
  return isIP(host) === 6 && (host === '::1' || host === '::' || /^::ffff:7f[0-9a-f]{2}:/.test(host));
}
