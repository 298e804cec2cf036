import type { EntityManager } from '@mikro-orm/postgresql';
import { idOrderPage, type IdOrderPage } from '../../db/list-page.ts';
import type { ConnectionKey } from '../connection/connection.store.ts';
import { ConnectionSync, type ConnectionSyncEntity } from './connection-sync.entity.ts';

/** A page of the connection's sync history, newest first: page `page`, or the runs that started before run `afterId`. */
export function syncHistoryPage(em: EntityManager, key: ConnectionKey, from: { page: number } | { afterId: string }, limit: number): Promise<IdOrderPage<ConnectionSyncEntity>> {
  return idOrderPage(em, ConnectionSync, { profileId: key.profileId, connection: key.id }, from, limit, 'desc');
}
