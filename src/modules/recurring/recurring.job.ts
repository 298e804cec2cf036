import type { MikroORM } from '@mikro-orm/postgresql';
import type { Db, PgBoss } from 'pg-boss';
import type { JobDefinition } from '../../jobs/queue.ts';
import { connectionById } from '../connection/connection.store.ts';
import { recomputeStreams } from './recurring.service.ts';
import type { StreamConnection } from './recurring.store.ts';

export const RECURRING_RECOMPUTE = 'recurring.recompute';

/**
 * Recomputes a connection's recurring streams (recurring.service.ts) as of the current UTC date.
 * `stately` with the connection as singleton key: at most one queued and one running per
 * connection, and a request while one is queued joins it, so syncs in quick succession cost one
 * recomputation.
 */
export function recurringRecomputeJob(orm: MikroORM): JobDefinition<{ connectionId: string; profileId?: string }> {
  return {
    name: RECURRING_RECOMPUTE,
    policy: 'stately',
    handle: async ({ connectionId, profileId }) => {
      const em = orm.em.fork();
      // A job queued before jobs carried the profile finds it from the connection (gone: nothing to recompute).
      const owner = profileId ?? (await connectionById(em, connectionId))?.profile.id;
      if (owner) await recomputeStreams(em, { connectionId, profileId: owner }, new Date().toISOString().slice(0, 10));
    },
  };
}

/** Queues a recomputation of the profile's connection's streams in the caller's transaction (`db` from jobsIn). */
export async function queueRecompute(boss: PgBoss, of: StreamConnection, db: Db): Promise<void> {
  await boss.send(RECURRING_RECOMPUTE, of, { singletonKey: of.connectionId, db });
}
