import type { Db, PgBoss } from 'pg-boss';
import type { JobDefinition } from '../../jobs/queue.ts';
import { DecryptionError } from '../../lib/field-cipher.ts';
import type { EndUserPresence, Provider } from '../../providers/provider.ts';
import { ProviderBusy, ProviderError } from '../../providers/provider-errors.ts';
import { recordBalance } from '../account/account.service.ts';
import { accountToRefresh } from '../account/account.store.ts';
import { recordEvent } from '../event/event.service.ts';
import { queueRecompute, recurringRecomputeJob } from '../recurring/recurring.job.ts';
import { recurringSweepJob } from '../recurring/stream-sweeper.ts';
import type { ConnectionEntity } from '../connection/connection.entity.ts';
import { presentConnection } from '../connection/connection.presenter.ts';
import { connectionById, connectionOrFail, dueForSync, endRefresh, forgetPresence, keyOf } from '../connection/connection.store.ts';
import { syncConnection, type SyncDependencies } from './sync-engine.ts';
import type { SentTrigger } from './sync-run.ts';
import { BudgetUsedUp } from './request-budget.ts';

export const SYNC = 'connection.sync';
const SYNC_DUE = 'connection.sync-due';
export const DISCONNECT = 'connection.disconnect';
const BALANCE_REFRESH = 'account.balance-refresh';

/**
 * A sync's or a disconnection's job: the connection, its profile (absent from jobs queued before jobs
 * carried it), and for a sync what it was sent for, when the connection's state will not say it.
 */
interface SyncPayload {
  connectionId: string;
  profileId?: string;
  trigger?: SentTrigger;
}

/** Where a job is sent from: the caller's transaction (`db`, from jobsIn), the connection's profile when the caller knows it, and (a sync) why. */
interface JobOptions {
  db?: Db;
  profileId?: string;
  trigger?: SentTrigger;
}

const payload = (connectionId: string, { profileId, trigger }: JobOptions): SyncPayload => ({ connectionId, ...(profileId ? { profileId } : {}), ...(trigger ? { trigger } : {}) });

/** How often a SYNCED connection is synced again; errors the provider may recover from retry every tick. */
export const SYNC_INTERVAL_HOURS = 6;

/**
 * The provider-facing background work: syncs (initial, scheduled, refresh), disconnection,
 * real-time balance refresh, and the recurring streams recomputed after a sync, on pg-boss. `attach` gives it the started queue to enqueue with.
 */
export class ConnectionJobs {
  readonly #deps: SyncDependencies;
  #boss: PgBoss | undefined;

  constructor(deps: SyncDependencies) {
    this.#deps = deps;
  }

  attach(boss: PgBoss): void {
    this.#boss = boss;
  }

  definitions(): JobDefinition<object>[] {
    return [
      {
        name: SYNC,
        // One sync per connection at a time, enforced by pg-boss in the database: `stately` with the
        // connection as singleton key holds at most one queued and one running job per connection,
        // whatever sends it (cron, refresh, webhook, reconnect); a send while one is queued joins it.
        policy: 'stately',
        handle: async ({ connectionId, profileId, trigger }: SyncPayload) => {
          // A refresh is a claim on the connection row, so a refresh that joined a queued sync still counts.
          const connection = await connectionById(this.#deps.orm.em.fork(), connectionId, { profileId });
          const refresh = connection?.refreshStartedAt != null;
          const presence = connection && this.#presenceOf(connection);
          try {
            if (refresh) await this.#askForNewTransactions(connection!);
            await syncConnection({ ...this.#deps, transactionsChanged: (of, db) => queueRecompute(this.#queue(), of, db) }, connectionId, { refresh, presence, profileId, sentFor: trigger });
          } catch (error) {
            // A temporary upstream failure comes back after the upstream's own delay, not pg-boss's.
            if (error instanceof BudgetUsedUp) return;
            const delay = error instanceof ProviderBusy || error instanceof ProviderError ? error.retryAfterSeconds : undefined;
            if (delay === undefined) throw error;
            await this.#queue().send(SYNC, payload(connectionId, { profileId: connection?.profile.id ?? profileId, trigger: 'RETRY' }), { startAfter: delay, singletonKey: connectionId });
          } finally {
            if (refresh) await endRefresh(this.#deps.orm.em.fork(), keyOf(connection!));
            // A link's or a repair's presence serves its first sync only (a refresh's goes with the refresh).
            else if (connection?.refreshPresenceEncrypted) await forgetPresence(this.#deps.orm.em.fork(), keyOf(connection), connection.refreshPresenceEncrypted);
          }
        },
      },
      { name: SYNC_DUE, cron: '*/15 * * * *', handle: () => this.syncDue() },
      { name: DISCONNECT, handle: ({ connectionId, profileId }: SyncPayload) => this.#disconnect(connectionId, profileId) },
      { name: BALANCE_REFRESH, policy: 'stately', handle: ({ accountId, profileId }: { accountId: string; profileId?: string }) => this.#refreshBalance(accountId, profileId) },
      recurringRecomputeJob(this.#deps.orm),
      recurringSweepJob(this.#deps.orm),
    ];
  }

  /**
   * Queues a sync (joining one already queued); with `db` (jobsIn), inside the caller's transaction.
   * With `profileId` (the connection's), the job names the profile in its statements.
   */
  async sync(connectionId: string, options: JobOptions = {}): Promise<void> {
    await this.#queue().send(SYNC, payload(connectionId, options), { singletonKey: connectionId, db: options.db });
  }

  /**
   * Queues a sync to run now (a refresh): a sync of the connection already queued for later (after
   * an upstream asked to come back, or its budget ran out) is cancelled first, so the refresh does
   * not join it and wait too; one queued to run now is joined. With `db`, in the caller's transaction.
   */
  async syncNow(connectionId: string, options: JobOptions = {}): Promise<void> {
    const queued = await this.#queue().findJobs(SYNC, { key: connectionId, queued: true, db: options.db });
    // Read through the caller's transaction, pg-boss's timestamps arrive as the driver gives them (text): read either.
    const later = queued.filter((job) => job.state !== 'active' && new Date(job.startAfter).getTime() > Date.now()).map((job) => job.id);
    if (later.length > 0) await this.#queue().cancel(SYNC, later, { db: options.db });
    await this.sync(connectionId, options);
  }

  async disconnect(connectionId: string, options: JobOptions = {}): Promise<void> {
    await this.#queue().send(DISCONNECT, payload(connectionId, options), { db: options.db });
  }

  /** Queues a balance refresh of the profile's account; a request while one is queued for the account joins it. */
  async refreshBalance(accountId: string, profileId: string): Promise<void> {
    await this.#queue().send(BALANCE_REFRESH, { accountId, profileId }, { singletonKey: accountId });
  }

  #queue(): PgBoss {
    if (!this.#boss) throw new Error('ConnectionJobs used before the queue started');
    return this.#boss;
  }

  /** The end-user behind the connection's refresh in progress; undefined when none was present (or it does not decrypt: the read is then unattended). */
  #presenceOf(connection: ConnectionEntity): EndUserPresence | undefined {
    try {
      const stored = this.#deps.cipher.decrypt('refreshPresence', connection, connection.refreshPresenceEncrypted);
      return stored === null ? undefined : (JSON.parse(stored) as EndUserPresence);
    } catch (error) {
      if (!(error instanceof DecryptionError)) throw error;
      return undefined;
    }
  }

  /** Queues a sync of every connection that is due (the cron job runs this every 15 minutes). */
  async syncDue(now = new Date()): Promise<void> {
    const due = await dueForSync(this.#deps.orm.em.fork(), SYNC_INTERVAL_HOURS, now);
    // One statement for the whole tick; a connection with a sync already queued is skipped by its key.
    if (due.length > 0) await this.#queue().insert(SYNC, due.map(({ id, profileId }) => ({ data: payload(id, { profileId, trigger: 'SCHEDULED' }), singletonKey: id })));
  }

  async #disconnect(connectionId: string, profileId: string | undefined): Promise<void> {
    const em = this.#deps.orm.em.fork();
    const connection = await connectionById(em, connectionId, { status: 'DISCONNECTING', profileId });
    if (!connection) return;
    const { provider, credential } = await this.#upstream(connection);
    await provider.disconnect(credential);
    await em.transactional(async (tx) => {
      const current = await connectionOrFail(tx, keyOf(connection), { lock: false, profile: true });
      current.status = 'DISCONNECTED';
      // The upstream access is revoked (or, for SimpleFIN, revoked by the user at their Bridge): keep nothing that could reach it.
      current.credentialEncrypted = this.#deps.cipher.encrypt('credential', current, '');
      recordEvent(tx, current.environment.id, 'connection.disconnected', current.profile, presentConnection(current));
    });
  }

  /** The connection's provider and its decrypted credential. */
  async #upstream(connection: ConnectionEntity): Promise<{ provider: Provider; credential: string }> {
    return {
      provider: await this.#deps.provider(connection.provider, connection.environment.id),
      credential: this.#deps.cipher.decrypt('credential', connection, connection.credentialEncrypted),
    };
  }

  /** A transactions refresh first asks the upstream to look for new activity (Plaid: /transactions/refresh). */
  async #askForNewTransactions(connection: ConnectionEntity): Promise<void> {
    try {
      const { provider, credential } = await this.#upstream(connection);
      await provider.refreshTransactions(credential);
    } catch (error) {
      // The sync that follows reports what the upstream thinks of this connection, or that its credential does not decrypt.
      if (!(error instanceof ProviderError) && !(error instanceof ProviderBusy) && !(error instanceof DecryptionError)) throw error;
    }
  }

  async #refreshBalance(accountId: string, profileId: string | undefined): Promise<void> {
    const em = this.#deps.orm.em.fork();
    const account = await accountToRefresh(em, accountId, profileId);
    if (!account || account.state !== 'OPEN') return;
    const connection = account.connection;
    const { provider, credential } = await this.#upstream(connection);
    try {
      const balance = await provider.refreshBalance(credential, account.remoteId);
      await em.transactional(async (tx) => {
        recordBalance(tx, tx.merge(account), balance, 'REFRESH', { environmentId: connection.environment.id, profile: connection.profile });
      });
    } catch (error) {
      // The connection's next sync reports provider failures; a refresh that cannot run is dropped.
      if (!(error instanceof ProviderError)) throw error;
      // Except that nothing would report a request of ours the provider refused.
      if (error.status === 'ERROR_SERVICE') this.#deps.logger?.error({ err: error, accountId }, 'balance refresh failed: the provider refused a request of ours');
    }
  }
}
