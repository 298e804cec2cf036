import type { IncomingMessage } from 'node:http';
import { isIPv4, isIPv6 } from 'node:net';

/**
 * The key under which a client address is counted (open connections, anonymous requests). An IPv6
 * client is counted by its /64, the smallest prefix a network hands one subscriber, so one host
 * cannot escape a per-address limit by cycling through the addresses of its own prefix. An
 * IPv4-mapped IPv6 address (`::ffff:192.0.2.1`, how a dual-stack socket reports an IPv4 client) is
 * counted as the IPv4 address it is. Anything else (a Unix socket, no address) keys as itself.
 */
export function clientAddressKey(address: string): string {
  const bare = address.split('%', 1)[0]!; // a zone index (fe80::1%eth0) names the interface, not the host
  if (!isIPv6(bare)) return address;
  const groups = ipv6Groups(bare);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address, `::` expanded and a dotted IPv4 tail read as two groups. */
function ipv6Groups(address: string): number[] {
  const parse = (part: string) =>
    part === ''
      ? []
      : part.split(':').flatMap((piece) => {
          if (!isIPv4(piece)) return [parseInt(piece, 16)];
          const [a, b, c, d] = piece.split('.').map(Number) as [number, number, number, number];
          return [(a << 8) | b, (c << 8) | d];
        });
  const [head = '', tail] = address.split('::');
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/**
 * The client address of a request Koa does not see (a WebSocket upgrade), read as Koa reads `ctx.ip`:
 * behind a trusted proxy, the X-Forwarded-For entry `hops` from the right (its leftmost when it holds
 * fewer); otherwise, or without the header, the peer's address. So a per-address window counts such
 * a request under the key Koa's requests from the same client count under.
 */
export function requestClientAddress(request: IncomingMessage, trustProxy: boolean, hops: number): string {
  const forwarded = trustProxy ? [request.headers['x-forwarded-for'] ?? ''].flat().join(',') : '';
  const entries = forwarded
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  return entries.slice(-hops)[0] || request.socket.remoteAddress || '';
}
