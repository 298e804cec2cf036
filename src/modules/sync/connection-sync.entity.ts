import { defineEntity, p } from '@mikro-orm/core';
import { Connection, CONNECTION_ERROR_CODES, CONNECTION_STATUSES, SYNC_TRIGGERS } from '../connection/connection.entity.ts';

/** How a sync run ended (the contract's ConnectionSync.outcome). */
export const SYNC_OUTCOMES = ['SUCCEEDED', 'FAILED', 'DEFERRED', 'CANCELLED'] as const;
export type SyncOutcome = (typeof SYNC_OUTCOMES)[number];

/**
 * A connection's sync history: one row per sync run that ended, written in the run's final
 * transaction with the connection's end status and event (docs/decisions/sync-history.md). The id is
 * the run's, a uuidv7 made when it started, so id order is start order; the primary key is the id
 * alone, and the table holds nothing that another row refers to, so it can be range-partitioned by
 * id and kept for a bounded time by dropping old partitions. `profileId` and `environmentId` are the
 * connection's, so every statement names the profile and the environment's reads need no join.
 * `added`, `modified` and `removed` are null when the run did not succeed.
 */
export const ConnectionSync = defineEntity({
  name: 'ConnectionSync',
  properties: {
    id: p.uuid().primary(),
    profileId: p.uuid(),
    connection: () => p.manyToOne(Connection).deleteRule('cascade'),
    environmentId: p.uuid(),
    trigger: p.enum(SYNC_TRIGGERS),
    startedAt: p.datetime(),
    endedAt: p.datetime(),
    outcome: p.enum(SYNC_OUTCOMES),
    /** The connection's status when the run ended. */
    status: p.enum(CONNECTION_STATUSES),
    errorCode: p.enum(CONNECTION_ERROR_CODES).nullable(),
    errorMessage: p.text().nullable(),
    /** The upstream's id of the request it refused (Plaid's request_id), when it gave one. */
    providerRequestId: p.text().nullable(),
    added: p.integer().nullable(),
    modified: p.integer().nullable(),
    removed: p.integer().nullable(),
  },
  indexes: [
    // A connection's history newest first, by page or after a cursor (GET /v1/connections/{id}/syncs).
    { properties: ['profileId', 'connection', 'id'] },
  ],
});

export type ConnectionSyncEntity = InstanceType<typeof ConnectionSync.class>;
