import type { EntityManager } from '@mikro-orm/postgresql';
import { idOrderPage, type IdOrderPage } from '../../db/list-page.ts';
import type { TimePartitionedLog } from '../../db/log-retention.ts';
import type { ConnectionKey } from '../connection/connection.store.ts';
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
