import type { OwnerRole, PostalAddress as OwnerAddress, ProviderAccountOwners } from '../provider-owners.ts';
import type { AccountResource, PostalAddress } from './api.ts';

/**
 * The account's owner as Enable Banking's account resource says: the holder(s)' `name`, the
 * holder's `postal_address`, and as role the end-user's `psu_status` (free text in the reference:
 * Account Holder, Co-account Holder, Attorney). None when the bank gives no name.
 */
export function toAccountOwners(uid: string, details: AccountResource): ProviderAccountOwners | null {
  const name = typeof details.name === 'string' ? details.name.trim() : '';
  if (!name) return null;
  const address = details.postal_address && toAddress(details.postal_address);
  return {
    accountRemoteId: uid,
    owners: [{ names: [name], emails: [], phoneNumbers: [], addresses: address ? [{ address, primary: true }] : [], role: roleOf(details.psu_status) }],
  };
}

/** `psu_status` as a role; null when the bank says nothing or something else. */
export function roleOf(status: string | undefined): OwnerRole | null {
  if (!status) return null;
  if (/\bco[-\s]?(account[-\s]?)?(holder|owner)/i.test(status)) return 'CO_HOLDER';
  if (/attorney|authori[sz]ed|proxy|mandat/i.test(status)) return 'ATTORNEY';
  if (/holder|owner/i.test(status)) return 'HOLDER';
  return null;
}

function toAddress(address: PostalAddress): OwnerAddress | null {
  const text = (value: string | undefined) => (typeof value === 'string' && value.trim() ? value.trim() : null);
  const street = [text(address.street_name), text(address.building_number)].filter(Boolean).join(' ') || null;
  const lines = (address.address_line ?? []).map(text).filter((line): line is string => line !== null);
  const parts: OwnerAddress = {
    line1: street ?? lines[0] ?? null,
    line2: street ? null : (lines[1] ?? null),
    city: text(address.town_name),
    region: text(address.country_sub_division),
    postalCode: text(address.post_code),
    country: text(address.country)?.toUpperCase() ?? null,
  };
  return Object.values(parts).some((part) => part !== null) ? parts : null;
}
