import type { FieldCipher } from '../../lib/field-cipher.ts';
import { encodeId } from '../../lib/ids.ts';
import type { ProfileEntity } from './profile.entity.ts';
import type { Address } from './profile.service.ts';

/** A profile as the contract shows it (REST `Profile`, GraphQL `Profile`), sensitive fields decrypted. */
export function presentProfile(profile: ProfileEntity, cipher: FieldCipher) {
  const address = cipher.decrypt('address', profile.addressEncrypted);
  return {
    ...presentProfileSummary(profile),
    email: cipher.decrypt('email', profile.emailEncrypted),
    phone: cipher.decrypt('phone', profile.phoneEncrypted),
    name: profile.name,
    names: profile.names,
    dateOfBirth: cipher.decrypt('dateOfBirth', profile.dateOfBirthEncrypted),
    address: address === null ? null : (JSON.parse(address) as Address),
  };
}

/** The non-sensitive part of a profile: what event envelopes carry, so the outbox holds no PII. */
export function presentProfileSummary(profile: ProfileEntity) {
  return {
    id: encodeId('profile', profile.id),
    uuid: profile.uuid,
    metadata: profile.metadata,
    at: profile.createdAt.toISOString(),
  };
}
