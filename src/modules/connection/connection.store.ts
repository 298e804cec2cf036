import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { updateLocked } from '../../db/locked-update.ts';
import { run } from '../../db/statement.ts';
import { col, table, type ReadRow } from '../../db/table.ts';
import { JOB_SCHEMA } from '../../jobs/queue.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { Connection, CONNECTION_STATUSES, type ConnectionEntity, type ConnectionStatus, type Product, type SyncChanges, type SyncRun } from './connection.entity.ts';

/** The connection table's columns that the store's statements read and the seed writes (checked against the entity by test/stores.test.ts). */
export const CONNECTION = table('connection', {
  id: col.uuid(),
  environmentId: col.uuid(),
  profileId: col.uuid(),
  provider: col.text(),
  institutionId: col.text(),
  institutionName: col.text(),
  status: col.oneOf(CONNECTION_STATUSES),
  products: col.json<Product[]>(),
  credentialEncrypted: col.text(),
  generation: col.integer(),
  syncCursor: col.text().orNull(),
  syncPageCursor: col.text().orNull(),
  syncRemovals: col.json<string[]>().orNull(),
  syncChanges: col.json<SyncChanges>().orNull(),
  lastSyncedAt: col.timestamp().orNull(),
  createdAt: col.timestamp(),
});

/** The pages of a connection's walk in progress, each with the remote ids it added (checked against the entity by test/stores.test.ts). */
export const SYNC_WALK_PAGE = table('sync_walk_page', {
  id: col.uuid(),
  profileId: col.uuid(),
  connectionId: col.uuid(),
  added: col.json<string[]>(),
});

const WALK = ['syncCursor', 'syncPageCursor', 'syncRemovals', 'syncChanges', 'provider'] as const;
/** Where a connection's transactions walk stands, read under the connection's row lock. */
export type WalkState = ReadRow<typeof CONNECTION, (typeof WALK)[number]>;

/**
 * The statements of the connection table; test/stores.test.ts prepares each. Those of one connection
 * name it by its key, its profile first (docs/scaling.md, "Sharding by profile").
 */
export const connectionStatements = {
  // A sync run begins ($3), or goes on with the one a dead worker left; SYNCING when $4. Never on a connection disconnecting or gone.
  beginRun: `update connection set sync_run = coalesce(sync_run, $3::jsonb), status = case when $4::boolean then 'SYNCING' else status end
     where id = $1 and profile_id = $2 and status not in ('DISCONNECTING', 'DISCONNECTED')
     returning sync_run as "syncRun"`,
  lockWalk: `select ${CONNECTION.select(WALK, 'c')} from connection c where c.profile_id = $2 and c.id = $1 for update`,
  // Mid-walk ($5: more pages follow) only the page cursor moves: the walk's first cursor stays, to restart from,
  // and the page's additions ($6) are kept in a row of their own; the walk's last page deletes its pages' rows.
  moveWalk: `with kept as (insert into sync_walk_page (${SYNC_WALK_PAGE.list(['id', 'profileId', 'connectionId', 'added'])}) select $7, $8, $3, $6::jsonb where $5 and $6::jsonb is not null),
          ended as (delete from sync_walk_page where profile_id = $8 and connection_id = $3 and not $5)
     update connection set sync_cursor = case when $5 then sync_cursor else $1 end, sync_page_cursor = case when $5 then $1 end,
       sync_changes = $2::jsonb, sync_removals = $4::jsonb
     where profile_id = $8 and id = $3`,
  rewindWalk: `with walk as (
       select id from connection
        where profile_id = $4 and id = $1 and sync_cursor is not distinct from $2 and coalesce(sync_page_cursor, sync_cursor) is not distinct from $3
          for update),
          pages as (delete from sync_walk_page p using walk where p.profile_id = $4 and p.connection_id = walk.id returning p.added),
          added as (select jsonb_agg(remote_id) as ids from pages, jsonb_array_elements(pages.added) as remote_id)
     update connection c set sync_page_cursor = null,
       sync_removals = case when added.ids is null then c.sync_removals else coalesce(c.sync_removals, '[]'::jsonb) || added.ids end
       from walk, added where c.profile_id = $4 and c.id = walk.id`,
  claimUpstreamRequest: `update connection set upstream_requests = jsonb_build_object('day', $2::text, 'count',
       case when upstream_requests->>'day' = $2 then (upstream_requests->>'count')::int + 1 else 1 end),
       next_read_at = coalesce($4, next_read_at)
     where profile_id = $5 and id = $1 and (upstream_requests is null or upstream_requests->>'day' <> $2 or (upstream_requests->>'count')::int < $3)`,
  claimRefresh: `update connection set refresh_started_at = $1, last_refresh_at = $1, refresh_presence_encrypted = $5
     where profile_id = $6 and id = $2 and (refresh_started_at is null or refresh_started_at < $3) and (last_refresh_at is null or last_refresh_at <= $4)
     returning id`,
  refreshTimes: `select extract(epoch from refresh_started_at) * 1000 as started, extract(epoch from last_refresh_at) * 1000 as last
     from connection where profile_id = $2 and id = $1`,
  // A budgeted login is not read again before its next_read_at, in an error state too: retries spend the budget as syncs do;
  // nor any login before the time its upstream said it refuses reads until.
  dueForSync: `select id, profile_id as "profileId" from connection
     where ((status = 'SYNCED' and last_synced_at < $2::timestamptz - make_interval(hours => $1))
        or status in ('ERROR_SERVICE', 'ERROR_PROVIDER', 'ERROR_INSTITUTION'))
       and (next_read_at is null or next_read_at <= $2)
       and (upstream_refuses_until is null or upstream_refuses_until <= $2)`,
  storeUpstreamRefusal: `update connection set upstream_refuses_until = greatest(upstream_refuses_until, $2::timestamptz) where profile_id = $3 and id = $1`,
  // Consents that have ended but whose connection does not say so yet, or that end by $2 and were not warned of.
  consentsDue: `select c.id, c.profile_id as "profileId" from connection c
     where c.consent_expires_at is not null and c.status not in ('DISCONNECTING', 'DISCONNECTED')
       and ((c.consent_expires_at <= $1 and (c.status <> 'ERROR_REPAIRABLE' or c.error_code is distinct from 'CONSENT_EXPIRED'))
         or (c.consent_expires_at <= $2 and c.consent_warned_for is distinct from c.consent_expires_at))`,
  // The wait keeps the sweep away from a connection whose job is being sent at this very moment.
  stuck: `with busy as (
       select distinct j.data->>'connectionId' as id from ${JOB_SCHEMA}.job j
        where j.name = any($1::text[])
          and (j.state in ('created', 'retry', 'active') or j.created_on > now() - make_interval(secs => $2) or j.completed_on > now() - make_interval(secs => $2)))
     select c.id, c.profile_id as "profileId", c.status from connection c join profile p on p.id = c.profile_id
      where c.status in ('INITIALIZING', 'SYNCING', 'DISCONNECTING') and p.deleting_at is null
        and c.created_at < now() - make_interval(secs => $2)
        and not exists (select 1 from busy where busy.id = c.id::text)`,
};

/**
 * Begins a sync run of the connection (`starting`, made as the sync starts), moving it to SYNCING
 * when `syncing`, in one conditional UPDATE. Resolves to the run that goes on: `starting`, or the one
 * a worker that died left on the connection (its retry goes on with it); undefined when the
 * connection is disconnecting or gone, and no run begins.
 */
export async function beginRun(em: EntityManager, key: ConnectionKey, starting: SyncRun, options: { syncing: boolean }): Promise<SyncRun | undefined> {
  return (await run<{ syncRun: SyncRun }>(em, connectionStatements.beginRun, [key.id, key.profileId, JSON.stringify(starting), options.syncing])).rows[0]?.syncRun;
}

/** The walk's state under the connection's row lock (held until the caller's transaction ends); undefined when the connection is gone. */
export async function lockWalk(tx: EntityManager, key: ConnectionKey): Promise<WalkState | undefined> {
  return (await run<WalkState>(tx, connectionStatements.lockWalk, [key.id, key.profileId])).rows[0];
}

/** Transaction ids kept per kind of change for a sync's event; past it only the count grows. */
export const SYNC_CHANGE_IDS = 1000;

/** The walk's changes so far (`walk.syncChanges`) with a page's: the stored ids it added, modified and removed. */
export function withPageChanges(sofar: SyncChanges | null, page: Required<SyncChanges>['ids']): SyncChanges {
  const ids = sofar?.ids ?? { added: [], modified: [], removed: [] };
  const kept = (kind: keyof typeof page) => [...ids[kind], ...page[kind]].slice(0, SYNC_CHANGE_IDS);
  return {
    added: (sofar?.added ?? 0) + page.added.length,
    modified: (sofar?.modified ?? 0) + page.modified.length,
    removed: (sofar?.removed ?? 0) + page.removed.length,
    ids: { added: kept('added'), modified: kept('modified'), removed: kept('removed') },
  };
}

/** A walk's step: the cursor it reached, the sync's changes with this page's, and what its last page must settle. */
export interface WalkStep {
  nextCursor: string;
  hasMore: boolean;
  changes: SyncChanges;
  /** Removals waiting for the walk's last page (kept mid-walk only). */
  removals: string[];
  /** What this page added (kept mid-walk only, for a restart to remove unless reported again). */
  added: string[];
}

/** Moves the walk on, in the caller's transaction (the one holding `lockWalk`'s lock, with the page's rows). */
export async function moveWalk(tx: EntityManager, key: ConnectionKey, step: WalkStep): Promise<void> {
  const { nextCursor, hasMore, changes, removals, added } = step;
  await run(tx, connectionStatements.moveWalk, [
    nextCursor,
    JSON.stringify(changes),
    key.id,
    hasMore && removals.length > 0 ? JSON.stringify(removals) : null,
    hasMore,
    hasMore && added.length > 0 ? JSON.stringify(added) : null,
    uuidv7(),
    key.profileId,
  ]);
}

/**
 * Sends a walk back to its first cursor `start` (the upstream changed under it); false when another
 * worker moved the walk on from `cursor` meanwhile. What its pages added becomes due for removal,
 * and stays only if the restarted walk reports it again: one that vanished meanwhile is never
 * reported again (added then removed is nothing), so it would otherwise stay forever.
 */
export async function rewindWalk(em: EntityManager, key: ConnectionKey, start: string | null, cursor: string | null): Promise<boolean> {
  return (await run(em, connectionStatements.rewindWalk, [key.id, start, cursor, key.profileId])).count !== 0;
}

/**
 * Counts one upstream request against the login's budget for the UTC `day`, in one conditional
 * UPDATE (so instances cannot both take the last one), and sets when the scheduler may read the
 * login again (`nextRead`, null: unchanged); false when `limit` is reached.
 */
export async function claimUpstreamRequest(em: EntityManager, key: ConnectionKey, claim: { day: string; limit: number; nextRead: Date | null }): Promise<boolean> {
  return (await run(em, connectionStatements.claimUpstreamRequest, [key.id, claim.day, claim.limit, claim.nextRead, key.profileId])).count !== 0;
}

/**
 * Claims a transactions refresh at `now` unless one runs (claimed after `staleBefore`) or ran after
 * `spacedAfter`, with the end-user behind it (encrypted; null: none present).
 */
export async function claimRefresh(
  em: EntityManager,
  key: ConnectionKey,
  claim: { now: Date; staleBefore: Date; spacedAfter: Date; presenceEncrypted: string | null },
): Promise<boolean> {
  const { now, staleBefore, spacedAfter, presenceEncrypted } = claim;
  return (await run(em, connectionStatements.claimRefresh, [now, key.id, staleBefore, spacedAfter, presenceEncrypted, key.profileId])).count !== 0;
}

/** When the running refresh was claimed and when the last one started, in epoch milliseconds. */
export async function refreshTimes(em: EntityManager, key: ConnectionKey): Promise<{ started: number | null; last: number | null } | undefined> {
  const { rows: [row] } = await run<{ started: string | null; last: string | null }>(em, connectionStatements.refreshTimes, [key.id, key.profileId]);
  return row && { started: row.started === null ? null : Number(row.started), last: row.last === null ? null : Number(row.last) };
}

/**
 * Connections due a scheduled sync at `now`: SYNCED longer ago than `hours`, or in an error their
 * provider may recover from; a budgeted login only once its next read is allowed.
 */
export async function dueForSync(em: EntityManager, hours: number, now: Date): Promise<ConnectionKey[]> {
  return (await run<ConnectionKey>(em, connectionStatements.dueForSync, [hours, now])).rows;
}

/** Connections whose consent has ended by `now` and that are not marked so yet, or that ends by `warnUntil` and was not warned of. */
export async function consentsDue(em: EntityManager, now: Date, warnUntil: Date): Promise<ConnectionKey[]> {
  return (await run<ConnectionKey>(em, connectionStatements.consentsDue, [now, warnUntil])).rows;
}

/**
 * Connections left INITIALIZING, SYNCING or DISCONNECTING for `seconds` with no job of `jobNames`
 * for them: none queued or running, and none sent or settled within `seconds`.
 */
export async function stuckConnections(em: EntityManager, jobNames: string[], seconds: number): Promise<Array<ConnectionKey & { status: string }>> {
  return (await run<ConnectionKey & { status: string }>(em, connectionStatements.stuck, [jobNames, seconds])).rows;
}

/** Statuses a connection leaves only by being disconnected: nothing else may overwrite them. */
export const INACTIVE: ConnectionStatus[] = ['DISCONNECTING', 'DISCONNECTED'];

/**
 * The connection, with its profile; undefined when it is gone or (with `status`) not in that status.
 * Named by its id alone (`profileId` absent) only by a job queued before jobs carried the profile.
 */
export async function connectionById(em: EntityManager, id: string, options: { status?: ConnectionStatus; profileId?: string } = {}): Promise<ConnectionEntity | undefined> {
  const { status, profileId } = options;
  return (await em.findOne(Connection, { id, ...(profileId ? { profile: profileId } : {}), ...(status ? { status } : {}) }, { populate: ['profile'] })) ?? undefined;
}

/** A connection as jobs, sweeps and the sync name it: its id and its profile's (every statement names the profile, docs/scaling.md). */
export interface ConnectionKey {
  id: string;
  profileId: string;
}

/** The ORM's condition for the connection of `key`. */
const byKey = (key: ConnectionKey) => ({ id: key.id, profile: key.profileId });

/**
 * The profile's connection (throws when it is gone), with its profile when `profile`, under its row
 * lock when `lock` (held until the caller's transaction ends). Read under the lock, it is the row as
 * stored, even when already loaded: the ORM's merge would keep a loaded value where the row now holds
 * null (a sync run another worker ended).
 */
export function connectionOrFail(tx: EntityManager, key: ConnectionKey, options: { lock: boolean; profile: boolean }): Promise<ConnectionEntity> {
  const locked = options.lock ? { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true } : {};
  return tx.findOneOrFail(Connection, byKey(key), options.profile ? { populate: ['profile'], ...locked } : locked);
}

/** A loaded connection's key. */
export const keyOf = (connection: ConnectionEntity): ConnectionKey => ({ id: connection.id, profileId: connection.profile.id });

/** Reads a loaded connection's row again into it (what was written since it was loaded); undefined when it is gone. */
export async function reloadConnection(em: EntityManager, connection: ConnectionEntity): Promise<ConnectionEntity | undefined> {
  return (await em.findOne(Connection, byKey(keyOf(connection)), { refresh: true })) ?? undefined;
}

/** A connection of the environment (or of one profile in it) by id, with its profile; none for a profile being deleted. */
export async function scopedConnection(em: EntityManager, id: string, scope: { environmentId: string; profileId?: string }): Promise<ConnectionEntity | undefined> {
  const profile = scope.profileId ? { id: scope.profileId, deletingAt: null } : { deletingAt: null };
  return (await em.findOne(Connection, { id, environment: scope.environmentId, profile }, { populate: ['profile'] })) ?? undefined;
}

/** The live connection an upstream login belongs to (not disconnecting or disconnected), with its profile. */
export async function liveConnectionOfLogin(em: EntityManager, login: { environmentId: string; provider: string; remoteId: string }): Promise<ConnectionEntity | undefined> {
  const { environmentId, provider, remoteId } = login;
  return (await em.findOne(Connection, { environment: environmentId, provider, remoteId, status: { $nin: INACTIVE } }, { populate: ['profile'] })) ?? undefined;
}

/** A profile's connections, oldest first. */
export function connectionsOfProfile(em: EntityManager, profileId: string): Promise<ConnectionEntity[]> {
  return em.find(Connection, { profile: profileId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
}

/** The profile's connections with these ids (the GraphQL loaders' batch). */
export function profileConnections(em: EntityManager, profileId: string, ids: readonly string[]): Promise<ConnectionEntity[]> {
  return em.find(Connection, { id: [...ids], profile: profileId });
}

/**
 * Moves the connection to `status` in one conditional UPDATE: only from `from` (a status, or any but
 * these), so a change that landed meanwhile is never overwritten; false when it was not in it.
 */
export async function moveStatus(em: EntityManager, key: ConnectionKey, from: ConnectionStatus | { notIn: ConnectionStatus[] }, status: ConnectionStatus): Promise<boolean> {
  const current = typeof from === 'string' ? from : { $nin: from.notIn };
  return (await em.nativeUpdate(Connection, { ...byKey(key), status: current }, { status })) > 0;
}

/** Stores a new login on the connection: its credential, its generation, and the status it starts in. */
export async function storeLogin(
  tx: EntityManager,
  key: ConnectionKey,
  login: Pick<ConnectionEntity, 'credentialEncrypted' | 'generation' | 'status' | 'errorCode' | 'consentExpiresAt' | 'refreshPresenceEncrypted'>,
): Promise<void> {
  await tx.nativeUpdate(Connection, byKey(key), login);
}

/** Sets when the end-user's consent to the connection ends (null: no known end). */
export async function storeConsentEnd(em: EntityManager, key: ConnectionKey, consentExpiresAt: Date | null): Promise<void> {
  await em.nativeUpdate(Connection, byKey(key), { consentExpiresAt });
}

/** Ends the connection's transactions refresh (the sync that served it is over); the end-user's address goes with it. */
export async function endRefresh(em: EntityManager, key: ConnectionKey): Promise<void> {
  await em.nativeUpdate(Connection, byKey(key), { refreshStartedAt: null, refreshPresenceEncrypted: null });
}

/** Records until when the upstream refuses the login's reads (it answered rate limited), never earlier than a refusal already recorded. */
export async function storeUpstreamRefusal(em: EntityManager, key: ConnectionKey, until: Date): Promise<void> {
  await run(em, connectionStatements.storeUpstreamRefusal, [key.id, until, key.profileId]);
}

/** Forgets the end-user's presence a read used (a link's or a repair's), unless another has replaced it meanwhile (a refresh claimed since). */
export async function forgetPresence(em: EntityManager, key: ConnectionKey, used: string): Promise<void> {
  await em.nativeUpdate(Connection, { ...byKey(key), refreshPresenceEncrypted: used }, { refreshPresenceEncrypted: null });
}

/** Changes a profile's connection under its row lock, in a transaction of its own; `missing` when there is none. */
export function updateProfileConnection<R>(em: EntityManager, id: string, profileId: string, missing: () => Error, change: (connection: ConnectionEntity) => R): Promise<R> {
  return updateLocked(em, Connection, { id, profile: profileId }, { missing }, change);
}
