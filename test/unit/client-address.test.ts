import { describe, expect, it } from 'vitest';
import { clientAddressKey } from '../../src/http/client-address.ts';

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
