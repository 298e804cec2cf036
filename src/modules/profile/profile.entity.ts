import { defineEntity, p } from '@mikro-orm/core';
import type { Metadata } from '../metadata/metadata.ts';
import { Environment } from '../environment/environment.entity.ts';

/**
 * An end-user. Sensitive fields are stored only as FieldCipher ciphertext (`*Encrypted`): the
 * plaintext never reaches the database. `deletingAt` marks a profile whose rows are being removed;
 * from that moment it reads as not found.
 */
export const Profile = defineEntity({
  name: 'Profile',
  properties: {
    id: p.uuid().primary(),
    environment: () => p.manyToOne(Environment),
    uuid: p.uuid(),
    name: p.text().nullable(),
    names: p.json<ProfileNames>().nullable(),
    emailEncrypted: p.text().nullable(),
    phoneEncrypted: p.text().nullable(),
    dateOfBirthEncrypted: p.text().nullable(),
    addressEncrypted: p.text().nullable(),
    metadata: p.json<Metadata>().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    deletingAt: p.datetime().nullable(),
    /** When the first sync of one of its connections finished, with enrichment (`profile.ready`). */
    readyAt: p.datetime().nullable(),
  },
  uniques: [{ properties: ['environment', 'uuid'] }],
  indexes: [
    // The environment's profiles in id (creation) order: GET /v1/profiles, by page or after a cursor.
    { properties: ['environment', 'id'] },
    // For the session module: the ended-sessions load starts from the profiles being deleted, a handful,
    // rather than joining every session of the day to its profile (credentials-sessions-ended-in-memory.md).
    { name: 'profile_deleting_index', properties: ['id'], where: 'deleting_at is not null' },
  ],
  // The revocation feed (docs/decisions/credentials-revocation-feed.md): marking a profile deleting
  // (or removing it) announces its id on commit, which revokes its sessions and Basic pairs.
  triggers: [
    {
      name: 'profile_revoked',
      timing: 'after',
      events: ['update'],
      body: "if old.deleting_at is distinct from new.deleting_at or old.environment_id is distinct from new.environment_id then perform pg_notify('tributary_revocations', 'p:' || old.id::text); end if; return null;",
    },
    { name: 'profile_removed', timing: 'after', events: ['delete'], body: "perform pg_notify('tributary_revocations', 'p:' || old.id::text); return null;" },
  ],
});

export type ProfileEntity = InstanceType<typeof Profile.class>;

/** What REST presents a profile from: the entity's columns, or a plain row of them (the GET path reads no entity). */
export type ProfileView = Pick<
  ProfileEntity,
  'id' | 'uuid' | 'name' | 'names' | 'emailEncrypted' | 'phoneEncrypted' | 'dateOfBirthEncrypted' | 'addressEncrypted' | 'metadata' | 'createdAt'
>;

export interface ProfileNames {
  first: string | null;
  middle: string | null;
  last: string | null;
}


