import type { PostalAddress, ProviderOwner } from '../../../providers/provider-owners.ts';
import { matchAddress, type AddressMatch } from './address-match.ts';
import { matchEmail } from './email-match.ts';
import { matchName, type NameMatch, type ProfileName } from './name-match.ts';
import { matchPhone } from './phone.ts';
import type { FieldMatch } from './threshold.ts';

/** What the profile says of its person (decrypted), compared with an account's owners. */
export interface ProfileIdentity extends ProfileName {
  email: string | null;
  phone: string | null;
  address: PostalAddress | null;
}

export interface OwnerMatch {
  name: NameMatch | null;
  email: FieldMatch | null;
  phone: FieldMatch | null;
  address: AddressMatch | null;
}

/**
 * The profile against every owner of an account, field by field (the contract's `OwnerMatch`); null
 * when the account has no owners. `region` reads phone numbers without a country code.
 */
export function matchOwners(profile: ProfileIdentity, owners: readonly ProviderOwner[], region: string | null): OwnerMatch | null {
  if (owners.length === 0) return null;
  return {
    name: matchName(profile, owners.flatMap((owner) => owner.names)),
    email: matchEmail(profile.email, owners.flatMap((owner) => owner.emails.map((email) => email.address))),
    phone: matchPhone(profile.phone, owners.flatMap((owner) => owner.phoneNumbers.map((phone) => phone.number)), region),
    address: matchAddress(profile.address, owners.flatMap((owner) => owner.addresses.map((address) => address.address))),
  };
}
