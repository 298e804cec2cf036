import { defineEntity, p } from '@mikro-orm/core';
import { Connection } from './connection.entity.ts';

/**
 * A page the connection's walk in progress applied, with the remote ids the page added: due for
 * removal if the walk restarts, unless reported again. One row per page (not one growing list on the
 * connection, rewritten by every page); the walk's rows are deleted when it ends or restarts.
 */
export const SyncWalkPage = defineEntity({
  name: 'SyncWalkPage',
  properties: {
    id: p.uuid().primary(),
    connection: () => p.manyToOne(Connection).deleteRule('cascade').index(),
    added: p.json<string[]>(),
  },
});
