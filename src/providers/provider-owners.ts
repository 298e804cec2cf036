/*
 * Account owners (ACCOUNT_OWNERS): who holds each account, as the institution knows them. This is
 * personal data: the service stores it encrypted and shows it to the profile's own credentials only.
 */

export const OWNER_ROLES = ['HOLDER', 'CO_HOLDER', 'ATTORNEY'] as const;
export type OwnerRole = (typeof OWNER_ROLES)[number];

export const OWNER_EMAIL_TYPES = ['PRIMARY', 'SECONDARY', 'OTHER'] as const;
export const OWNER_PHONE_TYPES = ['HOME', 'WORK', 'MOBILE', 'OTHER'] as const;

/** A postal address; a part the upstream does not report is null. */
export interface PostalAddress {
  line1: string | null;
  line2: string | null;
  city: string | null;
  region: string | null;
  postalCode: string | null;
  /** ISO 3166-1 alpha-2 where the upstream gives one. */
  country: string | null;
}

/** One owner of an account: a person or a business. */
export interface ProviderOwner {
  names: string[];
  emails: { address: string; primary: boolean; type: (typeof OWNER_EMAIL_TYPES)[number] | null }[];
  /** As the upstream writes them: the service reads them as E.164 when it presents or compares them. */
  phoneNumbers: { number: string; primary: boolean; type: (typeof OWNER_PHONE_TYPES)[number] | null }[];
  addresses: { address: PostalAddress; primary: boolean }[];
  /** Null when the upstream does not say. */
  role: OwnerRole | null;
}

/** The owners of one account of the login; an account the upstream reports no owners for is absent. */
export interface ProviderAccountOwners {
  accountRemoteId: string;
  owners: ProviderOwner[];
}
