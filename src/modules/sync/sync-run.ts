import type { EntityManager } from '@mikro-orm/postgresql';
import type { Db } from 'pg-boss';
import { jobsIn } from '../../jobs/in-transaction.ts';
import { uuidv7 } from '../../lib/ids.ts';
import type { ProviderBusy, ProviderError } from '../../providers/provider-errors.ts';
import { recordEvent } from '../event/event.service.ts';
import { markProfileReady } from '../profile/profile.service.ts';
import type { ConnectionEntity, ConnectionStatus, SyncChanges, SyncRun, SyncTrigger } from '../connection/connection.entity.ts';
import { presentConnection, presentSyncChanges } from '../connection/connection.presenter.ts';
import { consentEnded, markConsentExpired } from '../connection/consent.ts';
import { connectionOrFail, INACTIVE, type ConnectionKey } from '../connection/connection.store.ts';
import { ConnectionSync, type SyncOutcome } from './connection-sync.entity.ts';

/** What a sync job was sent for, when the connection's state does not say it (connection.jobs.ts). */
export type SentTrigger = Extract<SyncTrigger, 'SCHEDULED' | 'WEBHOOK' | 'RETRY'>;

/**
 * What starts a sync of `connection`: what the connection says first (a transactions refresh it
 * claimed, or the first sync of a login, new or repaired), else what the job was sent for (absent
 * for a direct call, or a job sent before jobs named it: the schedule).
 */
export function triggerOf(connection: Pick<ConnectionEntity, 'status' | 'generation'>, sync: { refresh: boolean; sentFor?: SentTrigger }): SyncTrigger {
  if (sync.refresh) return 'REFRESH';
  if (connection.status === 'INITIALIZING') return connection.generation > 1 ? 'REPAIR' : 'LINK';
  return sync.sentFor ?? 'SCHEDULED';
}

/** A run starting now (its id made now: id order is start order), at `startedAt` on the sync's clock. */
export function startingRun(trigger: SyncTrigger, startedAt: Date): SyncRun {
  return { id: uuidv7(), startedAt: startedAt.toISOString(), trigger };
}

/** Queues what follows a sync that changed transactions (recurring streams), with `db` in the sync's final transaction. */
export type TransactionsChanged = (of: { connectionId: string; profileId: string }, db: Db) => Promise<void>;

/**
 * Ends the sync run `run` at `now`, in one transaction under the connection's row lock: the final
 * status, its event, the first-sync `profile.ready`, (when transactions changed) the work that
 * follows them, and the run's history row. A run ends once: when the connection no longer carries it
 * (another worker that went on with it ended it, or this end was written already), nothing changes.
 */
export async function finishRun(
  em: EntityManager,
  key: ConnectionKey,
  run: SyncRun,
  failure: ProviderError | null,
  now: Date,
  previousStatus?: ConnectionStatus,
  transactionsChanged?: TransactionsChanged,
): Promise<void> {
  await em.transactional(async (tx) => {
    const connection = await connectionOrFail(tx, key, { lock: true, profile: true });
    if (connection.syncRun?.id !== run.id) return;
    connection.syncRun = null;
    if (INACTIVE.includes(connection.status)) return recordRun(tx, connection, run, now, 'CANCELLED');
    // The upstream says the consent reached its end before the end Tributary knew of: it ended now.
    if (failure?.consentExpired && !consentEnded(connection, now)) connection.consentExpiresAt = now;
    // A consent that ended before or while the sync ran decides the outcome, whatever the upstream said.
    if (consentEnded(connection, now)) {
      markConsentExpired(tx, connection, previousStatus ?? connection.status);
      return recordRun(tx, connection, run, now, 'FAILED', { message: failure?.message ?? "the end-user's consent ended", requestId: failure?.upstreamRequestId });
    }
    const changes = connection.syncChanges ?? { added: 0, modified: 0, removed: 0 };
    connection.errorCode = null;
    if (failure) {
      connection.status = failure.status;
      recordRun(tx, connection, run, now, 'FAILED', { message: failure.message, requestId: failure.upstreamRequestId });
      // Retrying an error state that persists says nothing new: the event fires when the state is entered.
      if (previousStatus !== failure.status) recordEvent(tx, connection.environment.id, `connection.synced.errored.${failure.status}`, connection.profile, presentConnection(connection));
      return;
    }
    const firstSync = connection.lastSyncedAt === null;
    connection.status = 'SYNCED';
    connection.lastSyncedAt = now;
    connection.syncChanges = null;
    recordRun(tx, connection, run, now, 'SUCCEEDED', { changes });
    if (changes.added + changes.modified + changes.removed > 0) {
      recordEvent(tx, connection.environment.id, 'connection.synced.successful', connection.profile, presentConnection(connection), presentSyncChanges(changes));
      await transactionsChanged?.({ connectionId: key.id, profileId: key.profileId }, jobsIn(tx));
    }
    if (firstSync) markProfileReady(tx, connection.profile);
  });
}

/**
 * Ends the sync run `run` at `now` as put off (the upstream asked to come back later, or the login's
 * request budget is used up): the connection goes back to `previousStatus` from SYNCING, and the
 * changes applied so far stay for the run that goes on later to report. Once, as finishRun.
 */
export async function putOffRun(em: EntityManager, key: ConnectionKey, run: SyncRun, reason: ProviderBusy, now: Date, previousStatus: ConnectionStatus): Promise<void> {
  await em.transactional(async (tx) => {
    const connection = await connectionOrFail(tx, key, { lock: true, profile: true });
    if (connection.syncRun?.id !== run.id) return;
    connection.syncRun = null;
    if (INACTIVE.includes(connection.status)) return recordRun(tx, connection, run, now, 'CANCELLED');
    if (connection.status === 'SYNCING') connection.status = previousStatus;
    recordRun(tx, connection, run, now, 'DEFERRED', { message: reason.message });
  });
}

interface RunDetails {
  /** Why it failed or was put off. */
  message?: string;
  /** The upstream's id of the request it refused. */
  requestId?: string;
  /** What a successful run changed (its event's counts). */
  changes?: SyncChanges;
}

/** The run's history row, as the connection (locked, in its end state) and `details` say it ended. */
function recordRun(tx: EntityManager, connection: ConnectionEntity, run: SyncRun, endedAt: Date, outcome: SyncOutcome, details: RunDetails = {}): void {
  const { message, requestId, changes } = details;
  tx.create(ConnectionSync, {
    id: run.id,
    profileId: connection.profile.id,
    connection,
    environmentId: connection.environment.id,
    trigger: run.trigger,
    startedAt: new Date(run.startedAt),
    endedAt,
    outcome,
    status: connection.status,
    errorCode: connection.errorCode ?? null,
    errorMessage: message ?? null,
    providerRequestId: requestId ?? null,
    added: changes?.added ?? null,
    modified: changes?.modified ?? null,
    removed: changes?.removed ?? null,
  });
}
