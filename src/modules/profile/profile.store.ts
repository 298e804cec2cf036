import { LockMode, raw } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { updateLocked } from '../../db/locked-update.ts';
import { idOrderPage, type IdOrderPage } from '../../db/list-page.ts';
import { run } from '../../db/statement.ts';
import { col, table, type ReadRow } from '../../db/table.ts';
import type { Metadata } from '../metadata/metadata.ts';
import { Profile, type ProfileEntity, type ProfileNames, type ProfileView } from './profile.entity.ts';

/** The columns of the profile table that plain SQL reads and writes (the seed's COPY); checked against the entity by test/stores.test.ts. */
export const PROFILE = table('profile', {
  id: col.uuid(),
  environmentId: col.uuid(),
  uuid: col.uuid(),
  name: col.text().orNull(),
  names: col.json<ProfileNames>().orNull(),
  emailEncrypted: col.text().orNull(),
  phoneEncrypted: col.text().orNull(),
  dateOfBirthEncrypted: col.text().orNull(),
  addressEncrypted: col.text().orNull(),
  metadata: col.json<Metadata>().orNull(),
  createdAt: col.timestamp(),
  readyAt: col.timestamp().orNull(),
});

const VIEW = ['id', 'uuid', 'name', 'names', 'emailEncrypted', 'phoneEncrypted', 'dateOfBirthEncrypted', 'addressEncrypted', 'metadata', 'createdAt'] as const;

/** The statements of the profile table; test/stores.test.ts prepares each. */
export const profileStatements = {
  // The whole row, for the ORM to map to the entity.
  live: 'select * from profile where id = $1 and environment_id = $2 and deleting_at is null',
  liveView: `select ${PROFILE.select(VIEW, 'p')} from profile p where p.id = $1 and p.environment_id = $2 and p.deleting_at is null`,
};

/** A live profile of the environment, or undefined: one indexed lookup, plain SQL mapped to the entity (no query builder). */
export async function liveProfile(em: EntityManager, id: string, environmentId: string): Promise<ProfileEntity | undefined> {
  const [row] = (await run(em, profileStatements.live, [id, environmentId])).rows;
  return row && em.map(Profile, row);
}

/** A live profile of the environment as REST presents it (a plain row: no entity hydration), or undefined. */
export async function liveProfileView(em: EntityManager, id: string, environmentId: string): Promise<ProfileView | undefined> {
  const [row] = (await run<ReadRow<typeof PROFILE, (typeof VIEW)[number]>>(em, profileStatements.liveView, [id, environmentId])).rows;
  return row && { ...row, createdAt: new Date(row.createdAt) };
}

/** A page of the environment's live profiles, oldest first (in id order: ids are time-ordered): page `page`, or the profiles after id `afterId`. */
/** What a profile list may be narrowed to: one uuid, and metadata holding every entry of a filter (compared by JSON type). */
export interface ProfileFilters {
  uuid?: string;
  metadata?: Record<string, string | number | boolean>;
}

export function liveProfilePage(em: EntityManager, environmentId: string, from: { page: number } | { afterId: string }, limit: number, filters: ProfileFilters = {}): Promise<IdOrderPage<ProfileEntity>> {
  const where = {
    environment: environmentId,
    deletingAt: null,
    ...(filters.uuid ? { uuid: filters.uuid } : {}),
    ...(filters.metadata ? { [raw('metadata @> ?::jsonb', [JSON.stringify(filters.metadata)])]: true } : {}),
  };
  return idOrderPage(em, Profile, where, from, limit);
}

/** The environment's profile (live or being deleted) with this id or uuid, or null. */
export function profileByIdOrUuid(em: EntityManager, environmentId: string, key: { id: string } | { uuid: string }): Promise<ProfileEntity | null> {
  return em.findOne(Profile, { ...key, environment: environmentId });
}

/** Whether a profile of the environment has this uuid (one being deleted too). */
export async function uuidTaken(em: EntityManager, environmentId: string, uuid: string): Promise<boolean> {
  return (await em.count(Profile, { environment: environmentId, uuid })) > 0;
}

/** The profile read again under its row lock, held until the caller's transaction ends. */
export function lockProfile(em: EntityManager, id: string): Promise<ProfileEntity> {
  return em.findOneOrFail(Profile, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
}

/** Changes the environment's live profile under its row lock (`updateLocked`); throws `missing()` when there is none. */
export function updateLiveProfile<R>(em: EntityManager, environmentId: string, id: string, missing: () => Error, change: (profile: ProfileEntity) => R): Promise<R> {
  return updateLocked(em, Profile, { id, environment: environmentId, deletingAt: null }, { missing }, change);
}

/** Whether the environment has a live profile with this id (Basic Auth's check). */
export async function isLiveProfile(em: EntityManager, environmentId: string, id: string): Promise<boolean> {
  return (await em.findOne(Profile, { id, environment: environmentId, deletingAt: null }, { fields: ['id'] })) !== null;
}

/** The profiles marked as deleting (only `profileId`, when given), whose rows are still to be removed. */
export function profilesBeingDeleted(em: EntityManager, profileId?: string): Promise<ProfileEntity[]> {
  return em.find(Profile, { deletingAt: { $ne: null }, ...(profileId ? { id: profileId } : {}) });
}

/** Removes a profile's row, and with it (the schema's cascades) every row of its data. */
export async function removeProfile(em: EntityManager, id: string): Promise<void> {
  await em.nativeDelete(Profile, { id });
}
