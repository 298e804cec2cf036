import type { EntityManager } from '@mikro-orm/postgresql';
import { run } from '../../db/statement.ts';
import { col, table, type ReadRow } from '../../db/table.ts';
import type { Metadata } from '../metadata/metadata.ts';
import type { ProfileNames, ProfileView } from './profile.entity.ts';

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

/** The stored row of a live profile of the environment (for `em.map`), or undefined. */
export async function liveProfileRow(em: EntityManager, id: string, environmentId: string): Promise<Record<string, unknown> | undefined> {
  return (await run(em, profileStatements.live, [id, environmentId])).rows[0];
}

/** A live profile of the environment as REST presents it (a plain row: no entity hydration), or undefined. */
export async function liveProfileView(em: EntityManager, id: string, environmentId: string): Promise<ProfileView | undefined> {
  const [row] = (await run<ReadRow<typeof PROFILE, (typeof VIEW)[number]>>(em, profileStatements.liveView, [id, environmentId])).rows;
  return row && { ...row, createdAt: new Date(row.createdAt) };
}
