import type { ProfileResolvers, QueryResolvers, MutationResolvers } from '../../../generated/graphql.ts';
import { mutationPayload } from '../../api-kit/mutation-payload.ts';
import { encodeId } from '../../lib/ids.ts';
import { decryptAddress } from './profile.presenter.ts';
import { ProfileService } from './profile.service.ts';

/** `Profile` fields from the stored entity; sensitive ones are decrypted only when asked for. */
export const profileType: ProfileResolvers = {
  id: (profile) => encodeId('profile', profile.id),
  name: (profile) => profile.name ?? null,
  names: (profile) => profile.names ?? null,
  metadata: (profile) => profile.metadata ?? null,
  email: (profile, _args, { cipher }) => cipher.decrypt('email', profile, profile.emailEncrypted),
  phone: (profile, _args, { cipher }) => cipher.decrypt('phone', profile, profile.phoneEncrypted),
  dateOfBirth: (profile, _args, { cipher }) => cipher.decrypt('dateOfBirth', profile, profile.dateOfBirthEncrypted),
  address: (profile, _args, { cipher }) => decryptAddress(profile, cipher),
  at: (profile) => profile.createdAt,
};

/** The authenticated profile; one being deleted reads as not found. */
export const profileQuery: NonNullable<QueryResolvers['profile']> = (_root, _args, { em, cipher, profileId, environmentId }) =>
  new ProfileService(em, cipher, environmentId).get(encodeId('profile', profileId));

/** Updates the authenticated profile; rule violations are data (`success: false`), not errors. */
export const profileUpdate: NonNullable<MutationResolvers['profileUpdate']> = (_root, { input }, { em, cipher, profileId, environmentId }) =>
  mutationPayload(input, () => new ProfileService(em, cipher, environmentId).updateById(encodeId('profile', profileId), input));
