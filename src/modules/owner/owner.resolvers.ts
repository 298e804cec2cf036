import type { AccountResolvers } from '../../../generated/graphql.ts';
import { countryOfConnection } from '../../providers/institution-country.ts';
import type { ProviderOwner } from '../../providers/provider-owners.ts';
import type { AccountView } from '../account/account.entity.ts';
import { matchOwners, type ProfileIdentity } from './match/owner-match.ts';
import { toE164 } from './match/phone.ts';

/**
 * `Account.owners` and `Account.ownerMatch`: the owners decrypted for the acting profile only (the
 * loaders are its own), phone numbers written in E.164.
 */
export const accountOwnerFields: Pick<AccountResolvers, 'owners' | 'ownerMatch'> = {
  owners: async (account, _args, context) => {
    const owners = await context.loaders.ownersOfAccount.load(account.id);
    if (owners.length === 0) return [];
    const region = await regionOf(account, context);
    return owners.map((owner) => ({ ...owner, phoneNumbers: owner.phoneNumbers.map((phone) => ({ ...phone, number: toE164(phone.number, region) })) }));
  },
  ownerMatch: async (account, _args, context) => {
    const owners: ProviderOwner[] = await context.loaders.ownersOfAccount.load(account.id);
    if (owners.length === 0) return null;
    return matchOwners(await context.loaders.profileIdentity.load(context.profileId), owners, await regionOf(account, context));
  },
};

/** What the region is read from: the request's loaders (src/graphql/loaders.ts) for the acting profile. */
interface RegionSources {
  profileId: string;
  loaders: {
    profileIdentity: { load(profileId: string): Promise<ProfileIdentity> };
    connection: { load(connectionId: string): Promise<{ provider: string; institutionId: string } | null> };
  };
}

/** Where a phone number without a country code is read: the country of the profile's address, else of the account's institution. */
async function regionOf(account: AccountView, { loaders, profileId }: RegionSources): Promise<string | null> {
  const identity = await loaders.profileIdentity.load(profileId);
  if (identity.address?.country) return identity.address.country;
  const connection = await loaders.connection.load(account.connection.id);
  return connection ? countryOfConnection(connection.provider, connection.institutionId) : null;
}
