import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { JOB_SCHEMA, type JobDefinition } from '../../jobs/queue.ts';
import { DISCONNECT, SYNC, type ConnectionJobs } from './connection.jobs.ts';

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
  // The wait keeps the sweep away from a connection whose job is being sent at this very moment.
  const stuck = await orm.em.fork().execute<Array<{ id: string; status: string }>>(
    `with busy as (
       select distinct j.data->>'connectionId' as id from ${JOB_SCHEMA}.job j
        where j.name in (?, ?)
          and (j.state in ('created', 'retry', 'active') or j.created_on > now() - make_interval(secs => ?) or j.completed_on > now() - make_interval(secs => ?)))
     select c.id, c.status from connection c join profile p on p.id = c.profile_id
      where c.status in ('INITIALIZING', 'SYNCING', 'DISCONNECTING') and p.deleting_at is null
        and c.created_at < now() - make_interval(secs => ?)
        and not exists (select 1 from busy where busy.id = c.id::text)`,
    [SYNC, DISCONNECT, stuckAfterSeconds, stuckAfterSeconds, stuckAfterSeconds],
  );
  for (const { id, status } of stuck) {
    if (status === 'DISCONNECTING') await jobs.disconnect(id);
    else await jobs.sync(id);
  }
  if (stuck.length > 0) logger.warn({ connectionIds: stuck.map(({ id }) => id) }, 'queued again the work of connections left without a job');
  return stuck.map(({ id }) => id);
}
