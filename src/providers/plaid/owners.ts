import type { AccountIdentity, Owner } from 'plaid';
import type { OWNER_EMAIL_TYPES, OWNER_PHONE_TYPES, ProviderAccountOwners, ProviderOwner } from '../provider-owners.ts';

const EMAIL_TYPES: Record<string, (typeof OWNER_EMAIL_TYPES)[number]> = { primary: 'PRIMARY', secondary: 'SECONDARY', other: 'OTHER' };
const PHONE_TYPES: Record<string, (typeof OWNER_PHONE_TYPES)[number]> = { home: 'HOME', work: 'WORK', office: 'WORK', mobile: 'MOBILE', mobile1: 'MOBILE', other: 'OTHER' };

/** /identity/get's accounts as each account's owners; Plaid does not say how an owner holds the account (role null). */
export function toAccountOwners(accounts: AccountIdentity[]): ProviderAccountOwners[] {
  return accounts.filter((account) => account.owners.length > 0).map((account) => ({ accountRemoteId: account.account_id, owners: account.owners.map(toOwner) }));
}

function toOwner(owner: Owner): ProviderOwner {
  return {
    names: owner.names.filter((name) => name.trim() !== ''),
    emails: owner.emails.map((email) => ({ address: email.data, primary: email.primary === true, type: EMAIL_TYPES[email.type] ?? null })),
    phoneNumbers: owner.phone_numbers.map((phone) => ({ number: phone.data, primary: phone.primary === true, type: PHONE_TYPES[phone.type] ?? null })),
    addresses: owner.addresses.map(({ data, primary }) => ({
      address: { line1: data.street || null, line2: null, city: data.city ?? null, region: data.region ?? null, postalCode: data.postal_code ?? null, country: data.country ?? null },
      primary: primary === true,
    })),
    role: null,
  };
}
