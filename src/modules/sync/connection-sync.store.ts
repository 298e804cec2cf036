import type { EntityManager } from '@mikro-orm/postgresql';
import { idOrderPage, type IdOrderPage } from '../../db/list-page.ts';
import type { TimePartitionedLog } from '../../db/log-retention.ts';
import type { ConnectionKey } from '../connection/connection.store.ts';
import { run } from '../../db/statement.ts';
import { DAY_MS } from '../../lib/dates.ts';
import { uuidv7Edge } from '../../lib/ids.ts';
import type { SyncRunCount } from '../../metrics/metrics.ts';
import { ConnectionSync, type ConnectionSyncEntity } from './connection-sync.entity.ts';

/** A page of the connection's sync history, newest first: page `page`, or the runs that started before run `afterId`. */
export function syncHistoryPage(em: EntityManager, key: ConnectionKey, from: { page: number } | { afterId: string }, limit: number): Promise<IdOrderPage<ConnectionSyncEntity>> {
  return idOrderPage(em, ConnectionSync, { profileId: key.profileId, connection: key.id }, from, limit, 'desc');
}

/** The connection's most recent run that ended, or undefined (none yet, or all past the log retention). */
export async function latestSync(em: EntityManager, key: ConnectionKey): Promise<ConnectionSyncEntity | undefined> {
  return (await em.findOne(ConnectionSync, { profileId: key.profileId, connection: key.id }, { orderBy: { id: 'desc' } })) ?? undefined;
}

/** The sync history's weeks (partitioned by id like the event log): each is dropped once LOG_RETENTION_DAYS old. */
export const SYNC_HISTORY_LOG: TimePartitionedLog = { table: 'connection_sync' };

/** The health figures' statements of the sync history; test/stores.test.ts prepares each. */
export const syncHistoryStatements = {
  /**
   * The runs that started at or after $1 (ids from the first UUIDv7 of $1's millisecond on: the id
   * range prunes to the last week's partitions and reads through the primary key) and have ended, of
   * environment $3 or every environment (null), by environment, provider and outcome: `lastDay`
   * counts them all, `lastHour` those from $2 on.
   */
  runCounts: `select s.environment_id as "environmentId", c.provider, s.outcome,
            count(*) filter (where s.id >= $2::uuid)::int as "lastHour", count(*)::int as "lastDay"
       from connection_sync s join connection c on c.id = s.connection_id
      where s.id >= $1::uuid and ($3::uuid is null or s.environment_id = $3::uuid)
      group by s.environment_id, c.provider, s.outcome`,
};

const HOUR_MS = 3_600_000;

/**
 * The sync runs that started in the hour and the day before `now` and have ended, by environment
 * (only `environmentId`'s when given), provider and outcome: what the health figures show in
 * `/metrics` and `/v1/metrics/summary` alike, read from the history every process writes.
 */
export async function syncRunCounts(em: EntityManager, now: Date, environmentId?: string): Promise<SyncRunCount[]> {
  const since = (ms: number) => uuidv7Edge(now.getTime() - ms, 'first');
  return (await run<SyncRunCount>(em, syncHistoryStatements.runCounts, [since(DAY_MS), since(HOUR_MS), environmentId ?? null])).rows;
}
