import type { EntityManager } from '@mikro-orm/postgresql';
import { run } from '../../db/statement.ts';
import { col, table } from '../../db/table.ts';
import type { Metadata } from '../metadata/metadata.ts';

/** The columns of the profile table that plain SQL writes (the seed's COPY); checked against the entity by test/stores.test.ts. */
export const PROFILE = table('profile', {
  id: col.uuid(),
  environmentId: col.uuid(),
  uuid: col.uuid(),
  name: col.text().orNull(),
  metadata: col.json<Metadata>().orNull(),
  createdAt: col.timestamp(),
  readyAt: col.timestamp().orNull(),
});

/** The statements of the profile table; test/stores.test.ts prepares each. */
export const profileStatements = {
  // The whole row, for the ORM to map to the entity.
  live: 'select * from profile where id = $1 and environment_id = $2 and deleting_at is null',
};

/** The stored row of a live profile of the environment (for `em.map`), or undefined. */
export async function liveProfileRow(em: EntityManager, id: string, environmentId: string): Promise<Record<string, unknown> | undefined> {
  return (await run(em, profileStatements.live, [id, environmentId])).rows[0];
}
