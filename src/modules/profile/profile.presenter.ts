import type { components } from '../../../generated/rest.ts';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import { encodeId } from '../../lib/ids.ts';
import type { Metadata } from '../metadata/metadata.ts';
import type { ProfileView } from './profile.entity.ts';

/** A stored address: every part present, null when unknown (the contract's `Address`). */
export type Address = NonNullable<components['schemas']['Address']>;

type RestProfile = components['schemas']['Profile'];

/** A profile as the REST contract shows it, sensitive fields decrypted. */
export function presentProfile(profile: ProfileView, cipher: FieldCipher): RestProfile {
  return {
    ...presentProfileSummary(profile),
    email: cipher.decrypt('email', profile, profile.emailEncrypted),
    phone: cipher.decrypt('phone', profile, profile.phoneEncrypted),
    name: profile.name ?? null,
    names: profile.names ?? null,
    dateOfBirth: cipher.decrypt('dateOfBirth', profile, profile.dateOfBirthEncrypted),
    address: decryptAddress(profile, cipher),
  };
}

/** The non-sensitive part of a profile: what event envelopes carry, so the outbox holds no PII. */
export function presentProfileSummary(profile: Pick<ProfileView, 'id' | 'uuid' | 'metadata' | 'createdAt'>): { id: string; uuid: string; metadata: Metadata | null; at: string } {
  return {
    id: encodeId('profile', profile.id),
    uuid: profile.uuid,
    metadata: profile.metadata ?? null,
    at: profile.createdAt.toISOString(),
  };
}

/** The profile's address, decrypted (stored as encrypted JSON). */
export function decryptAddress(profile: Pick<ProfileView, 'id' | 'addressEncrypted'>, cipher: FieldCipher): Address | null {
  const address = cipher.decrypt('address', profile, profile.addressEncrypted);
  return address === null ? null : (JSON.parse(address) as Address);
}
