import type { EntityManager } from '@mikro-orm/postgresql';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import type { PostalAddress } from '../../providers/provider-owners.ts';
import { decryptAddress } from '../profile/profile.presenter.ts';
import { liveProfileView } from '../profile/profile.store.ts';
import type { ProfileIdentity } from './match/owner-match.ts';

/** What the profile says of its person, decrypted, for the owner match; nothing when the profile is gone. */
export async function profileIdentity(em: EntityManager, cipher: FieldCipher, profileId: string, environmentId: string): Promise<ProfileIdentity> {
  const profile = await liveProfileView(em, profileId, environmentId);
  if (!profile) return { name: null, names: null, email: null, phone: null, address: null };
  const address = decryptAddress(profile, cipher);
  return {
    name: profile.name ?? null,
    names: profile.names ?? null,
    email: cipher.decrypt('email', profile, profile.emailEncrypted),
    phone: cipher.decrypt('phone', profile, profile.phoneEncrypted),
    address: address && postalAddress(address),
  };
}

/** Every part present, null when the stored address lacks it (one stored before a part existed). */
function postalAddress(address: Partial<Record<keyof PostalAddress, string | null>>): PostalAddress {
  const part = (key: keyof PostalAddress) => address[key] ?? null;
  return { line1: part('line1'), line2: part('line2'), city: part('city'), region: part('region'), postalCode: part('postalCode'), country: part('country') };
}
