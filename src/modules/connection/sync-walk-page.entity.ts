import { defineEntity, p } from '@mikro-orm/core';
import { Profile } from '../profile/profile.entity.ts';
import { Connection } from './connection.entity.ts';

/**
 * A page the connection's walk in progress applied, with the remote ids the page added: due for
 * removal if the walk restarts, unless reported again. One row per page (not one growing list on the
 * connection, rewritten by every page); the walk's rows are deleted when it ends or restarts. It
 * carries its connection's profile, as every statement names it (docs/scaling.md); no foreign key
 * of its own: the connection's cascade removes it with its profile.
 */
export const SyncWalkPage = defineEntity({
  name: 'SyncWalkPage',
  properties: {
    id: p.uuid().primary(),
    profile: () => p.manyToOne(Profile).createForeignKeyConstraint(false),
    connection: () => p.manyToOne(Connection).deleteRule('cascade').index(),
    added: p.json<string[]>(),
  },
});
