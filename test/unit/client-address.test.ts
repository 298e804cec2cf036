import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { clientAddressKey, requestClientAddress } from '../../src/http/client-address.ts';

describe('client address keys', () => {
  it.each([
    ['an IPv4 address as itself', '192.0.2.7', '192.0.2.7'],
    ['an IPv6 address by its /64', '2001:db8:1:2:aaaa:bbbb:cccc:dddd', '2001:db8:1:2::/64'],
    ['another address of the same /64 alike', '2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['leading zeros and case as the same /64', '2001:0DB8:0001:0002:0:0:0:9', '2001:db8:1:2::/64'],
    ['a compressed prefix expanded', '2001:db8::5', '2001:db8:0:0::/64'],
    ['the loopback address', '::1', '0:0:0:0::/64'],
    ['an IPv4-mapped address as its IPv4 address', '::ffff:198.51.100.9', '198.51.100.9'],
    ['an IPv4-mapped address written in hex alike', '::ffff:c633:6409', '198.51.100.9'],
    ['a link-local address without its zone', 'fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['something that is no IP address as itself', 'unix-socket', 'unix-socket'],
  ])('keys %s', (_what, address, key) => {
    expect(clientAddressKey(address)).toBe(key);
  });

  it('keeps neighbouring /64 prefixes apart, and an IPv4 address apart from the IPv6 prefix that embeds it', () => {
    expect(clientAddressKey('2001:db8:1:2::1')).not.toBe(clientAddressKey('2001:db8:1:3::1'));
    expect(clientAddressKey('::ffff:198.51.100.9')).not.toBe(clientAddressKey('64:ff9b::198.51.100.9'));
  });
});

describe('the client address of a WebSocket upgrade, read as Koa reads ctx.ip', () => {
  const upgrade = (forwardedFor: string | undefined, peer = '10.0.0.9') =>
    ({ headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor }, socket: { remoteAddress: peer } }) as unknown as IncomingMessage;

  it.each([
    ['the peer without a trusted proxy, whatever X-Forwarded-For says', false, 1, '198.51.100.9', '10.0.0.9'],
    ['the entry one hop from the right behind one proxy', true, 1, '203.0.113.5, 198.51.100.9', '198.51.100.9'],
    ['the entry two hops from the right behind two', true, 2, '203.0.113.5, 198.51.100.9, 192.0.2.1', '198.51.100.9'],
    ['the leftmost entry when there are fewer than the hops', true, 3, '198.51.100.9, 192.0.2.1', '198.51.100.9'],
    ['the peer when a trusted proxy sent no header', true, 1, undefined, '10.0.0.9'],
  ])('is %s', (_what, trustProxy, hops, forwardedFor, address) => {
    expect(requestClientAddress(upgrade(forwardedFor), trustProxy, hops)).toBe(address);
  });
});
