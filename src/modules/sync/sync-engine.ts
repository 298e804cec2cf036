import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { DecryptionError, type FieldCipher } from '../../lib/field-cipher.ts';
import type { CursorProvider, EndUserPresence, Provider } from '../../providers/provider.ts';
import { ProviderBusy, ProviderError, SyncRestart } from '../../providers/provider-errors.ts';
import type { ProviderAccount, SyncPage } from '../../providers/provider-records.ts';
import { markVerified } from '../account/account.service.ts';
import { unverifiedAccounts } from '../account/account.store.ts';
import type { ConnectionEntity, SyncTrigger } from '../connection/connection.entity.ts';
import { consentEnded } from '../connection/consent.ts';
import { beginRun, connectionById, keyOf, reloadConnection, rewindWalk, storeUpstreamRefusal } from '../connection/connection.store.ts';
import { BudgetUsedUp } from './request-budget.ts';
import { syncProducts, type ProductQueues } from './product-steps.ts';
import { PageReader } from './page-reader.ts';
import { unreadRemoteIds } from '../transaction/transaction-sync.store.ts';
import { applyAccounts, applyPages, type SyncObservers } from './sync-steps.ts';
import { finishRun, putOffRun, startingRun, triggerOf, type SentTrigger, type TransactionsChanged } from './sync-run.ts';
import { syncWindow } from './window-sync.ts';

export interface SyncDependencies extends SyncObservers, ProductQueues {
  /** The ORM a sync runs on, every step of it (its own pool in the service: see openSyncDatabase). */
  orm: MikroORM;
  cipher: FieldCipher;
  /** The provider a connection of this environment syncs with. */
  provider(name: string, environmentId: string): Promise<Provider>;
  transactionsChanged?: TransactionsChanged;
  /** The time now (a test's clock moves faster); absent: the system's. */
  now?: () => Date;
}

/**
 * Brings one connection up to date with its provider: accounts and balances, then transaction
 * pages, then the investments, liabilities and statements its products name (product-steps.ts). Each page is applied in one database transaction together with the cursor that produced
 * it, under a lock on the connection row that also checks the stored cursor is still the one the
 * page was fetched from; so a re-run, a retried crash or a concurrent worker never applies a page
 * twice or skips one. Change counts are carried on the connection until the sync ends, so the
 * `connection.synced.successful` event reports every change exactly once, even across a crash; so is
 * the sync run, so that the run is recorded once, when it ends, with its end (sync-run.ts).
 * `sentFor`: what the job was sent for, when the connection's state does not say it.
 */
export async function syncConnection(
  deps: SyncDependencies,
  connectionId: string,
  options: { refresh?: boolean; presence?: EndUserPresence; profileId?: string; sentFor?: SentTrigger } = {},
): Promise<void> {
  const em = deps.orm.em.fork();
  const now = deps.now ?? (() => new Date());
  const connection = await connectionById(em, connectionId, { profileId: options.profileId });
  if (!connection || connection.status === 'DISCONNECTING' || connection.status === 'DISCONNECTED') return;
  if (connection.profile.deletingAt) return;
  const trigger = triggerOf(connection, { refresh: options.refresh ?? false, sentFor: options.sentFor });
  // An ended consent reaches nothing upstream: the connection waits for the end-user to renew it.
  if (consentEnded(connection, now())) return endAtOnce(em, connection, trigger, null, now());
  const provider = await deps.provider(connection.provider, connection.environment.id);
  const accessToken = await readCredential(deps, em, connection, trigger);
  if (accessToken === undefined) return;
  const previousStatus = connection.status;
  // Conditional, so a disconnect that lands meanwhile is never overwritten.
  const run = await beginRun(em, keyOf(connection), startingRun(trigger, now()), { syncing: connection.status !== 'INITIALIZING' });
  if (!run) return;
  if (connection.status !== 'INITIALIZING') {
    // Where to sync from is read after SYNCING is written: a worker that moves the cursor past that
    // read finishes after this write, so its final status is not overwritten by this sync's SYNCING
    // while this one stops (the cursor moved) without finishing.
    await reloadConnection(em, connection);
  }
  const began = performance.now();
  const observe = (outcome: 'synced' | 'failed' | 'deferred') => deps.metrics?.syncFinished(connection.provider, outcome, (performance.now() - began) / 1000);
  try {
    const applied =
      provider.syncStyle === 'WINDOW'
        ? await syncWindow({ em, provider, credential: accessToken, connection, refresh: options.refresh ?? false, presence: options.presence, cipher: deps.cipher, observers: deps, now: now() })
        : await syncCursor(em, provider, accessToken, connection, deps);
    if (!applied) return;
    await syncProducts(em, connection, provider, accessToken, deps);
    if (connection.products.includes('ACCOUNT_NUMBERS') && provider.capabilities.has('ACCOUNT_NUMBERS')) await verifyAccounts(em, connection, provider, accessToken);
    await finishRun(em, keyOf(connection), run, null, now(), undefined, deps.transactionsChanged);
    observe('synced');
  } catch (error) {
    if (error instanceof ProviderBusy) {
      // Come back later (the job retries after the upstream's delay); the connection's state stands.
      await putOffRun(em, keyOf(connection), run, error, now(), previousStatus);
      // The upstream's own refusal (not Tributary's budget) holds until the time it gave: refreshes and the scheduler wait for it.
      if (!(error instanceof BudgetUsedUp)) await storeUpstreamRefusal(em, keyOf(connection), new Date(now().getTime() + error.retryAfterSeconds * 1000));
      observe('deferred');
      throw error;
    }
    // The upstream refused a request of ours: nothing retries it, so the operator must hear of it.
    if (error instanceof ProviderError && error.status === 'ERROR_SERVICE') {
      deps.logger?.error({ err: error, connectionId: connection.id, provider: connection.provider }, 'sync failed: the provider refused a request of ours');
    }
    // A failure of our own shows as ERROR_SERVICE (not a sync stuck at SYNCING) and is rethrown, so
    // the job is retried; pages already applied stay, and the retry goes on from their cursor.
    await finishRun(em, keyOf(connection), run, error instanceof ProviderError ? error : new ProviderError('ERROR_SERVICE', 'the sync failed inside Tributary'), now(), previousStatus);
    observe('failed');
    if (!(error instanceof ProviderError) || error.retryAfterSeconds !== undefined) throw error;
  }
}

/**
 * The connection's upstream credential; undefined when it does not decrypt here (a key missing from
 * ENCRYPTION_KEYS, a tampered row). Retrying cannot help until that is fixed: the connection turns
 * ERROR_SERVICE and the job ends; one log line says so when it enters that state. The scheduled
 * retries of ERROR_SERVICE connections find it again once the keys are right.
 */
async function readCredential(deps: SyncDependencies, em: EntityManager, connection: ConnectionEntity, trigger: SyncTrigger): Promise<string | undefined> {
  try {
    return deps.cipher.decrypt('credential', connection, connection.credentialEncrypted);
  } catch (error) {
    if (!(error instanceof DecryptionError)) throw error;
    const previousStatus = connection.status;
    await endAtOnce(em, connection, trigger, new ProviderError('ERROR_SERVICE', 'the stored credential does not decrypt'), new Date());
    deps.metrics?.syncFinished(connection.provider, 'failed', 0);
    if (previousStatus !== 'ERROR_SERVICE') {
      deps.logger?.error(
        { connectionId: connection.id, reason: error.message },
        'sync stopped: the connection\'s stored credential does not decrypt with this ENCRYPTION_KEYS; the connection is ERROR_SERVICE until it does',
      );
    }
    return undefined;
  }
}

/** Restarts of one walk after the upstream changed mid-pagination, before the sync gives up (and retries later). */
const MAX_RESTARTS = 3;

/**
 * Reported transactions a walk gathers, page by page, before applying them in one database
 * transaction: the lock, the walk's move, the enricher's reads and the commit are paid once for
 * them, not once a page (decisions/sync-pages-batched.md).
 */
export const BATCH_ROWS = 5000;

async function syncCursor(em: EntityManager, provider: CursorProvider, credential: string, connection: ConnectionEntity, deps: SyncDependencies): Promise<boolean> {
  const accounts = await provider.accounts(credential);
  await applyAccounts(em, connection, accounts, deps.cipher);
  return walkTransactions(em, provider, credential, connection, accounts, { start: connection.syncCursor ?? null, resume: connection.syncPageCursor ?? null }, deps);
}

/**
 * Walks the cursor to the end, from `resume` when a crashed walk stopped between pages, applying
 * the pages it fetches together (up to BATCH_ROWS transactions) in one database transaction, and
 * reading the next batch's pages while one is applied (page-reader.ts). When the upstream changed under the walk (`SyncRestart`), the walk goes
 * back to its first cursor `start` (after a crash too: the cursor it resumed from is as stale) and
 * starts again: pages already applied are applied again, which changes nothing, and what they added
 * that the upstream no longer reports is removed when the walk ends. False when another worker took
 * the connection over. An account a page names that `accounts` (the provider's account list) lacks is
 * stored with the list before the page, so its transactions are not dropped.
 */
async function walkTransactions(
  em: EntityManager,
  provider: CursorProvider,
  accessToken: string,
  connection: ConnectionEntity,
  accounts: ProviderAccount[],
  { start, resume }: { start: string | null; resume: string | null },
  deps: SyncDependencies,
): Promise<boolean> {
  const key = keyOf(connection);
  const known = new Set(accounts.map((account) => account.remoteId));
  for (let restarts = 0; ; restarts++) {
    let cursor = restarts === 0 && resume !== null ? resume : start;
    // Pages fetched and not yet applied, the first from `from`; applied together in one transaction.
    let batch: SyncPage[] = [];
    let from = cursor;
    // Read afresh by each attempt: a restarted walk finds the rows its earlier attempt stored.
    const remoteIds = unreadRemoteIds();
    const reader = new PageReader((at) => provider.syncTransactions(accessToken, at));
    const flush = async () => {
      const applied = batch.length === 0 || (await applyPages(em, key, from, batch, deps, remoteIds));
      [batch, from] = [[], cursor];
      return applied;
    };
    try {
      for (;;) {
        let page: SyncPage;
        try {
          page = await reader.next(cursor);
        } catch (error) {
          // What was fetched before the failure is applied, as if each page were applied when fetched.
          if (!(await flush())) return false;
          throw error;
        }
        const newcomers = (page.accounts ?? []).filter((account) => !known.has(account.remoteId));
        if (newcomers.length > 0) {
          // Pages before this one are applied without them, as they would be alone.
          if (!(await flush())) return false;
          // The whole list: accounts it leaves out are taken as closed.
          accounts.push(...newcomers);
          for (const account of newcomers) known.add(account.remoteId);
          await applyAccounts(em, connection, accounts, deps.cipher);
        }
        batch.push(page);
        cursor = page.nextCursor;
        if (page.hasMore && batch.reduce((rows, fetched) => rows + fetched.added.length + fetched.modified.length, 0) < BATCH_ROWS) continue;
        if (page.hasMore) reader.readAhead(cursor, BATCH_ROWS);
        if (!(await flush())) return false;
        if (!page.hasMore) return true;
      }
    } catch (error) {
      if (!(error instanceof SyncRestart) || restarts >= MAX_RESTARTS) throw error;
      if (!(await rewindWalk(em, key, start, cursor))) return false;
    } finally {
      reader.stop();
    }
  }
}

/**
 * Verifies depository accounts for money movement: the provider confirming their ACH numbers is the
 * verification. Each account flips to verified with its `account.verified` event in one transaction;
 * one the provider offers no ACH numbers for stays unverified, and the others are verified all the same.
 */
async function verifyAccounts(em: EntityManager, connection: ConnectionEntity, provider: Provider, accessToken: string): Promise<void> {
  for (const account of await unverifiedAccounts(em, connection.id, connection.profile.id)) {
    if (!(await provider.accountNumbers(accessToken, account.remoteId))) continue;
    await markVerified(em, account.id, { environmentId: connection.environment.id, profile: connection.profile });
  }
}

/**
 * Begins and ends at once a sync run that reaches nothing upstream (the consent ended, the credential
 * does not decrypt): `failure`, or what the ended consent decides, from the connection's status.
 */
async function endAtOnce(em: EntityManager, connection: ConnectionEntity, trigger: SyncTrigger, failure: ProviderError | null, now: Date): Promise<void> {
  const run = await beginRun(em, keyOf(connection), startingRun(trigger, now), { syncing: false });
  if (run) await finishRun(em, keyOf(connection), run, failure, now, connection.status);
}
