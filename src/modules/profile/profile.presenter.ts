import type { components } from '../../../generated/rest.ts';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import { encodeId } from '../../lib/ids.ts';
import type { Metadata } from '../metadata/metadata.ts';
import type { ProfileEntity } from './profile.entity.ts';

type RestProfile = components['schemas']['Profile'];

/** A profile as the REST contract shows it, sensitive fields decrypted. */
export function presentProfile(profile: ProfileEntity, cipher: FieldCipher): RestProfile {
  const address = cipher.decrypt('address', profile.addressEncrypted);
  return {
    ...presentProfileSummary(profile),
    email: cipher.decrypt('email', profile.emailEncrypted),
    phone: cipher.decrypt('phone', profile.phoneEncrypted),
    name: profile.name ?? null,
    names: profile.names ?? null,
    dateOfBirth: cipher.decrypt('dateOfBirth', profile.dateOfBirthEncrypted),
    address: address === null ? null : (JSON.parse(address) as RestProfile['address']),
  };
}

/** The non-sensitive part of a profile: what event envelopes carry, so the outbox holds no PII. */
export function presentProfileSummary(profile: ProfileEntity): { id: string; uuid: string; metadata: Metadata | null; at: string } {
  return {
    id: encodeId('profile', profile.id),
    uuid: profile.uuid,
    metadata: profile.metadata ?? null,
    at: profile.createdAt.toISOString(),
  };
}
