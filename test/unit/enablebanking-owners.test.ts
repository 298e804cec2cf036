import { describe, expect, it } from 'vitest';
import { roleOf, toAccountOwners } from '../../src/providers/enablebanking/owners.ts';

const details = { currency: 'EUR', identification_hash: 'h' };

describe("Enable Banking's account holder as owners", () => {
  it("reads psu_status's wordings as roles, and nothing it does not know", () => {
    const statuses = ['Account Holder', 'ACCOUNT_HOLDER', 'Co-account Holder', 'Co-Holder', 'coholder', 'Attorney', 'Authorised user', 'Power of attorney', 'Owner', 'Beneficiary', '', undefined];
    expect(statuses.map(roleOf)).toEqual(['HOLDER', 'HOLDER', 'CO_HOLDER', 'CO_HOLDER', 'CO_HOLDER', 'ATTORNEY', 'ATTORNEY', 'ATTORNEY', 'HOLDER', null, null, null]);
  });

  it('takes the structured address, else its lines, and no owner without a name', () => {
    expect(toAccountOwners('uid-1', { ...details, name: ' Matti Meikäläinen ', postal_address: { street_name: 'Mannerheimintie', building_number: '12', post_code: '00100', town_name: 'Helsinki', country: 'fi' } })).toEqual({
      accountRemoteId: 'uid-1',
      owners: [{ names: ['Matti Meikäläinen'], emails: [], phoneNumbers: [], addresses: [{ primary: true, address: { line1: 'Mannerheimintie 12', line2: null, city: 'Helsinki', region: null, postalCode: '00100', country: 'FI' } }], role: null }],
    });
    expect(toAccountOwners('uid-2', { ...details, name: 'Asko Teirila', psu_status: 'Attorney', postal_address: { address_line: ['PO Box 511', '39140 AKDENMAA FINLAND'] } })!.owners[0]).toMatchObject({
      addresses: [{ primary: true, address: { line1: 'PO Box 511', line2: '39140 AKDENMAA FINLAND', city: null, postalCode: null } }],
      role: 'ATTORNEY',
    });
    expect(toAccountOwners('uid-3', { ...details, name: 'Asko', postal_address: {} })!.owners[0]!.addresses).toEqual([]);
    expect(toAccountOwners('uid-4', { ...details, name: '  ', psu_status: 'Account Holder' })).toBeNull();
    expect(toAccountOwners('uid-5', details)).toBeNull();
  });
});
