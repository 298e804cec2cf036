import { defineEntity, p } from '@mikro-orm/core';
import type { Metadata } from '../metadata/metadata.ts';
import { Environment } from '../environment/environment.entity.ts';
import { Profile } from '../profile/profile.entity.ts';

export const CONNECTION_STATUSES = [
  'INITIALIZING',
  'SYNCING',
  'SYNCED',
  'ERROR_REPAIRABLE',
  'ERROR_SERVICE',
  'ERROR_PROVIDER',
  'ERROR_INSTITUTION',
  'DISCONNECTING',
  'DISCONNECTED',
] as const;
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number];
export type ConnectionErrorStatus = Extract<ConnectionStatus, `ERROR_${string}`>;

/** Why a connection is in its error state, when Tributary knows better than the status alone (the contract's ConnectionErrorCode). */
export const CONNECTION_ERROR_CODES = ['CONSENT_EXPIRED'] as const;
export type ConnectionErrorCode = (typeof CONNECTION_ERROR_CODES)[number];

export const PRODUCTS = ['TRANSACTIONS', 'BALANCES', 'ACCOUNT_NUMBERS', 'INVESTMENTS', 'LIABILITIES', 'ACCOUNT_OWNERS', 'STATEMENTS'] as const;
export type Product = (typeof PRODUCTS)[number];

/**
 * One login of a profile at one institution, reached through a provider. `credentialEncrypted` is the
 * provider's access token (FieldCipher ciphertext). `generation` counts logins: a reconnect bumps it,
 * which resets verification. `refreshStartedAt` is set while a transactions refresh runs (one at a
 * time, claimed with a conditional UPDATE so it holds across instances); `lastRefreshAt` enforces
 * the 4-hour spacing.
 */
/**
 * What the sync in progress changed among the connection's transactions: exact counts, and the
 * stored ids of the first of each (bounded: see connection.store.ts). A sync begun before the ids
 * were kept has none.
 */
export interface SyncChanges {
  added: number;
  modified: number;
  removed: number;
  ids?: { added: string[]; modified: string[]; removed: string[] };
}

/** What starts a sync run (the contract's ConnectionSync.trigger). */
export const SYNC_TRIGGERS = ['LINK', 'REPAIR', 'REFRESH', 'SCHEDULED', 'WEBHOOK', 'RETRY'] as const;
export type SyncTrigger = (typeof SYNC_TRIGGERS)[number];

/**
 * The sync run in progress: its id (a uuidv7 made when it started, the id of its history row), when
 * it started and what started it. A worker that dies leaves it here, so the job's retry goes on with
 * the same run and the run is recorded once, when it ends.
 */
export interface SyncRun {
  id: string;
  startedAt: string;
  trigger: SyncTrigger;
}

/** The predicate of the due-sync sweep's partial index: the states a scheduled sync is for. */
const SYNC_DUE_STATUSES = "status in ('SYNCED', 'ERROR_SERVICE', 'ERROR_PROVIDER', 'ERROR_INSTITUTION')";

export const Connection = defineEntity({
  name: 'Connection',
  properties: {
    id: p.uuid().primary(),
    environment: () => p.manyToOne(Environment),
    profile: () => p.manyToOne(Profile).deleteRule('cascade'),
    provider: p.text(),
    /** The upstream's id of the login (Plaid's item_id), so its webhooks find the connection. */
    remoteId: p.text().nullable(),
    institutionId: p.text(),
    institutionName: p.text(),
    status: p.enum(CONNECTION_STATUSES),
    products: p.json<Product[]>(),
    credentialEncrypted: p.text(),
    generation: p.integer().default(1),
    /** Where the last complete transactions walk ended: the next walk starts (and restarts) here. */
    syncCursor: p.text().nullable(),
    /**
     * The cursor of the next page while a walk is between pages (null otherwise): a retried crash
     * resumes there, while a restart (the upstream changed mid-walk) still goes back to `syncCursor`.
     */
    syncPageCursor: p.text().nullable(),
    /** The sync run in progress (null between runs), ended with its history row (sync/connection-sync.entity.ts). */
    syncRun: p.json<SyncRun>().nullable(),
    /** Changes applied by the sync in progress, reported by its `connection.synced.successful`. */
    syncChanges: p.json<SyncChanges>().nullable(),
    /**
     * Removals reported by the sync in progress, applied when its walk ends: a pending transaction a
     * page removes may be taken over by its posted twin on a later page (same id and metadata).
     */
    syncRemovals: p.json<string[]>().nullable(),
    /** Upstream requests made for this login on one UTC day, for providers with a daily request budget. */
    upstreamRequests: p.json<{ day: string; count: number }>().nullable(),
    /** Budgeted providers: the scheduler reads this login again no sooner (unattended reads spread over the day). */
    nextReadAt: p.datetime().nullable(),
    /**
     * The end-user present for the next read: behind the refresh in progress, or back from their bank
     * after a link or repair (EndUserPresence as JSON, FieldCipher ciphertext: an IP address is
     * personal data). Used by one sync, then cleared.
     */
    refreshPresenceEncrypted: p.text().nullable(),
    /** The upstream refused a read as rate limited and said to come back then: no unattended read before it. */
    upstreamRefusesUntil: p.datetime().nullable(),
    /** When the end-user's consent to this login ends; null: no known end. */
    consentExpiresAt: p.datetime().nullable(),
    /** The consent end that `connection.consent_expiring` was sent for: once per consent. */
    consentWarnedFor: p.datetime().nullable(),
    /** Why the connection is in its error state, when known (CONSENT_EXPIRED); null otherwise. */
    errorCode: p.enum(CONNECTION_ERROR_CODES).nullable(),
    lastSyncedAt: p.datetime().nullable(),
    refreshStartedAt: p.datetime().nullable(),
    lastRefreshAt: p.datetime().nullable(),
    metadata: p.json<Metadata>().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  indexes: [
    { properties: ['profile', 'createdAt'] },
    { properties: ['environment', 'status'] },
    { properties: ['provider', 'remoteId'] },
    { properties: ['consentExpiresAt'] },
    // The due-sync sweep (connection.store.ts, dueForSync) reads SYNCED connections by their last sync
    // and the retried error states, only those: the rest (DISCONNECTED above all) are not in the index.
    { name: 'connection_sync_due_index', properties: ['status', 'lastSyncedAt'], where: SYNC_DUE_STATUSES },
  ],
});

export type ConnectionEntity = InstanceType<typeof Connection.class>;
