import { describe, expect, it } from 'vitest';
import { checkTarget } from '../../src/modules/webhook/target.ts';

type Verdict = 'allowed' | 'private' | 'unreachable';

/** Literal targets (no DNS) and what each mode makes of them: [host as written in the URL, verdict]. */
const TARGETS: Array<[string, Verdict]> = [
  // Public IPv4, including the edges of the special ranges around them.
  ['8.8.8.8', 'allowed'],
  ['1.1.1.1', 'allowed'],
  ['100.63.255.255', 'allowed'],
  ['100.128.0.0', 'allowed'],
  ['172.15.255.255', 'allowed'],
  ['172.32.0.0', 'allowed'],
  ['198.17.255.255', 'allowed'],
  ['198.20.0.0', 'allowed'],
  ['223.255.255.255', 'allowed'],
  // Non-public IPv4.
  ['0.0.0.0', 'private'],
  ['10.1.2.3', 'private'],
  ['100.64.0.1', 'private'],
  ['127.0.0.1', 'private'],
  ['127.255.255.254', 'private'],
  ['169.254.169.254', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.0.0.8', 'private'],
  ['192.168.1.1', 'private'],
  ['198.18.0.1', 'private'],
  ['198.19.255.255', 'private'],
  // Other spellings of 127.0.0.1 that the URL parser normalises.
  ['2130706433', 'private'],
  ['0x7f.1', 'private'],
  ['017700000001', 'private'],
  // Documentation, multicast, reserved and broadcast IPv4.
  ['192.0.2.1', 'unreachable'],
  ['198.51.100.7', 'unreachable'],
  ['203.0.113.9', 'unreachable'],
  ['224.0.0.1', 'unreachable'],
  ['239.255.255.250', 'unreachable'],
  ['240.0.0.1', 'unreachable'],
  ['255.255.255.255', 'unreachable'],
  // Public IPv6, and IPv6 forms that embed a public IPv4 address.
  ['[2606:4700:4700::1111]', 'allowed'],
  ['[2001:4860:4860::8888]', 'allowed'],
  ['[::ffff:8.8.8.8]', 'allowed'],
  ['[::8.8.8.8]', 'allowed'],
  ['[64:ff9b::8.8.8.8]', 'allowed'],
  ['[2002:808:808::1]', 'allowed'],
  // Non-public IPv6, and IPv6 forms that embed a non-public IPv4 address.
  ['[::]', 'private'],
  ['[::1]', 'private'],
  ['[::ffff:127.0.0.1]', 'private'],
  ['[::ffff:10.0.0.1]', 'private'],
  ['[::ffff:169.254.169.254]', 'private'],
  ['[::127.0.0.1]', 'private'],
  ['[64:ff9b::127.0.0.1]', 'private'],
  ['[64:ff9b::a00:1]', 'private'],
  ['[64:ff9b:1::808:808]', 'private'],
  ['[2002:7f00:1::]', 'private'],
  ['[2002:a9fe:a9fe::1]', 'private'],
  ['[2001::1]', 'private'],
  ['[2001:0:4136:e378:8000:63bf:3fff:fdd2]', 'private'],
  ['[2001:2::1]', 'private'],
  ['[fc00::1]', 'private'],
  ['[fd12:3456::1]', 'private'],
  ['[fe80::1]', 'private'],
  ['[febf::1]', 'private'],
  ['[fec0::1]', 'private'],
  ['[5f00::1]', 'private'],
  // Documentation, multicast and discard-only IPv6, and embedded documentation or multicast IPv4.
  ['[2001:db8::1]', 'unreachable'],
  ['[3fff::1]', 'unreachable'],
  ['[100::1]', 'unreachable'],
  ['[ff02::1]', 'unreachable'],
  ['[ff05::1:3]', 'unreachable'],
  ['[::ffff:224.0.0.1]', 'unreachable'],
  ['[64:ff9b::192.0.2.1]', 'unreachable'],
  ['[2002:c000:201::]', 'unreachable'],
];

async function verdict(host: string, allowPrivate: boolean): Promise<Verdict> {
  const checked = await checkTarget(`https://${host}/hook`, { httpsOnly: true, allowPrivate });
  if (!('refused' in checked)) return 'allowed';
  if (/private, loopback, link-local or other non-public/.test(checked.refused)) return 'private';
  expect(checked.refused).toMatch(/documentation, multicast or reserved address that cannot receive webhooks/);
  return 'unreachable';
}

describe('webhook target addresses', () => {
  it.each(TARGETS)('%s is %s when private targets are refused', async (host, expected) => {
    expect(await verdict(host, false)).toBe(expected);
  });

  it.each(TARGETS)('%s (%s) when private targets are allowed', async (host, strict) => {
    expect(await verdict(host, true)).toBe(strict === 'private' ? 'allowed' : strict);
  });

  it('connects to the address it checked, in the family it has', async () => {
    expect(await checkTarget('https://8.8.8.8/hook', { httpsOnly: true, allowPrivate: false })).toMatchObject({ address: '8.8.8.8', family: 4 });
    expect(await checkTarget('https://[::ffff:8.8.8.8]/hook', { httpsOnly: true, allowPrivate: false })).toMatchObject({ address: '::ffff:808:808', family: 6 });
  });

  it('checks every address a name resolves to', async () => {
    expect(await checkTarget('https://localhost/hook', { httpsOnly: true, allowPrivate: false })).toEqual({
      refused: expect.stringMatching(/^targetUrl resolves to (127\.0\.0\.1|::1), a private/),
    });
    expect(await checkTarget('https://localhost/hook', { httpsOnly: true, allowPrivate: true })).toMatchObject({ address: expect.stringMatching(/^(127\.0\.0\.1|::1)$/) });
  });
});
