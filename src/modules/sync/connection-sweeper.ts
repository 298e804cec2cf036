import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { JobDefinition } from '../../jobs/queue.ts';
import { DISCONNECT, SYNC, type ConnectionJobs } from './connection.jobs.ts';
import { stuckConnections } from '../connection/connection.store.ts';

const SWEEP = 'connection.sweep';

export interface SweepDependencies {
  orm: MikroORM;
  jobs: ConnectionJobs;
  logger: Logger;
  /** How long a connection may wait in a passing state with no job for it (STUCK_CONNECTION_SECONDS). */
  stuckAfterSeconds: number;
}

/**
 * Every minute, queues again the work of connections left INITIALIZING, SYNCING or DISCONNECTING
 * without a job: none queued or running, and none sent or settled for `stuckAfterSeconds`. That is
 * a crash between a status change and its enqueue, or a job out of retries. A job whose worker died
 * needs no sweep: pg-boss retries it once its heartbeats stop.
 */
export function connectionSweepJob(deps: SweepDependencies): JobDefinition<object> {
  return {
    name: SWEEP,
    cron: '* * * * *',
    async handle() {
      await sweepStuckConnections(deps);
    },
  };
}

/** One sweep; resolves to the ids of the connections whose sync or disconnection it queued. */
export async function sweepStuckConnections({ orm, jobs, logger, stuckAfterSeconds }: SweepDependencies): Promise<string[]> {
  const stuck = await stuckConnections(orm.em.fork(), [SYNC, DISCONNECT], stuckAfterSeconds);
  for (const { id, profileId, status } of stuck) {
    if (status === 'DISCONNECTING') await jobs.disconnect(id, { profileId });
    else await jobs.sync(id, { profileId, trigger: 'RETRY' });
  }
  if (stuck.length > 0) logger.warn({ connectionIds: stuck.map(({ id }) => id) }, 'queued again the work of connections left without a job');
  return stuck.map(({ id }) => id);
}
