import { describe, expect, it } from 'vitest';
import type { PostalAddress } from '../../src/providers/provider-owners.ts';
import { compareAddresses, matchAddress } from '../../src/modules/owner/match/address-match.ts';

const address = (parts: Partial<PostalAddress>): PostalAddress => ({ line1: null, line2: null, city: null, region: null, postalCode: null, country: null, ...parts });
const home = address({ line1: '2992 Cameron Road', city: 'Malakoff', region: 'NY', postalCode: '14236', country: 'US' });

describe('address matching (OwnerAddressMatch)', () => {
  it('scores the rules of the contract', () => {
    const cases: Array<[PostalAddress, number, boolean | null]> = [
      [address({ line1: '2992 CAMERON RD.', postalCode: '14236-1234' }), 100, true], // abbreviation, ZIP+4
      [address({ line1: '2992 Cameron Rd', line2: 'Apt 4', postalCode: '14236' }), 100, true], // a second line on one side only
      [address({ line1: '2992 Cameron Rd', city: 'malakoff' }), 90, null], // no postal code, the same city
      [address({ line1: '2992 Cameron Rd', city: 'Buffalo' }), 50, null],
      [address({ line1: '2992 Cameron Rd', postalCode: '10001' }), 50, false],
      [address({ line1: '2992 Cameron Hill Rd', postalCode: '14236' }), 80, true], // the streets share words
      [address({ line1: '17 Cameron Rd', postalCode: '14236' }), 30, true], // the postal code alone
      [address({ line1: '1 Market St', postalCode: '94105' }), 0, false],
    ];
    for (const [theirs, score, postalCodeMatched] of cases) {
      expect({ line1: theirs.line1, ...compareAddresses(home, theirs) }).toEqual({ line1: theirs.line1, score, postalCodeMatched });
    }
  });

  it('tells apart second lines that both have, and reads a unit out of the first line', () => {
    const flat = address({ line1: '1 Market St', line2: 'Suite 300', postalCode: '94105' });
    expect(compareAddresses(flat, address({ line1: '1 Market Street', line2: 'Ste 300', postalCode: '94105' })).score).toBe(100);
    expect(compareAddresses(flat, address({ line1: '1 Market St', line2: 'Suite 400', postalCode: '94105' })).score).toBe(90);
    expect(compareAddresses(flat, address({ line1: '1 Market St #400', postalCode: '94105' })).score).toBe(90);
  });

  it('reads European addresses, number after the street', () => {
    expect(compareAddresses(address({ line1: 'Hauptstraße 5', postalCode: '10115' }), address({ line1: 'HAUPTSTR. 5', postalCode: '10115' })).score).toBe(100);
    expect(compareAddresses(address({ line1: 'Mannerheimintie 12 B', postalCode: '00100' }), address({ line1: 'MANNERHEIMINTIE 12 B', postalCode: '00 100' })).score).toBe(100);
  });

  it('keeps the best owner address, and is null when either side has nothing to compare', () => {
    expect(matchAddress(home, [address({ line1: '1 Market St', postalCode: '94105' }), address({ line1: '2992 Cameron Road', postalCode: '14236' })])).toEqual({ score: 100, matched: true, postalCodeMatched: true });
    expect(matchAddress(null, [home])).toBeNull();
    expect(matchAddress(address({ country: 'US' }), [home])).toBeNull();
    expect(matchAddress(home, [address({ country: 'US' })])).toBeNull();
  });
});
