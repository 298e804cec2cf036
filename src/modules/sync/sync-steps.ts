import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import { run } from '../../db/statement.ts';
import type { Metrics } from '../../metrics/metrics.ts';
import type { ProviderAccount, ProviderTransaction, SyncPage, UnreadableItem } from '../../providers/provider-records.ts';
import { applyReportedAccounts, latestBalances, recordBalance } from '../account/account.service.ts';
import { sameReading } from '../balance/balance.service.ts';
import { applyTransactionPages, type WalkRemoteIds } from '../transaction/transaction-sync.store.ts';
import { enricherFor } from '../categorization/learning.ts';
import { memoizedEnrich } from '../categorization/pipeline-memo.ts';
import type { ConnectionEntity, SyncChanges } from '../connection/connection.entity.ts';
import { connectionOrFail, keyOf, lockWalk, moveWalk, withPageChanges, type ConnectionKey } from '../connection/connection.store.ts';

/*
 * The units of work of a sync, each one database transaction on the sync's EntityManager that
 * composes what the owning modules expose: accounts and their balances (with their events), and
 * pages of transaction changes applied together with the cursor that produced them. Used by the
 * cursor walk (sync-engine.ts) and window reconciliation (window-sync.ts).
 */

/** Where a sync reports what it did; absent, nothing is reported (tests of the engine alone). */
export interface SyncObservers {
  /** Counts syncs, pages, and transactions dropped. */
  metrics?: Metrics;
  /** Says what needs the operator's attention (a dropped transaction, a request the upstream refused). */
  logger?: Logger;
}

/** Stores what the provider reports of the connection's accounts, and a balance for each whose balance changed. */
export async function applyAccounts(em: EntityManager, connection: ConnectionEntity, reported: ProviderAccount[], cipher: FieldCipher): Promise<void> {
  await em.transactional(async (tx) => {
    // One accounts step per connection at a time: two workers syncing it at once would both insert a new account.
    await connectionOrFail(tx, keyOf(connection), { lock: true, profile: false });
    const accounts = await applyReportedAccounts(tx, { connectionId: connection.id, profileId: connection.profile.id }, reported, cipher);
    const latest = await latestBalances(tx, connection.profile.id, accounts);
    const target = { environmentId: connection.environment.id, profile: connection.profile };
    accounts.forEach((account, index) => {
      const { balance } = reported[index]!;
      if (!sameReading(account.latestBalanceId ? latest.get(account.latestBalanceId) : undefined, balance)) recordBalance(tx, account, balance, 'SYNC', target);
    });
  });
}

/**
 * Applies one page fetched from `cursor`, in one transaction with the walk's move to `nextCursor`
 * (applyPages of that one page).
 */
export async function applyPage(
  em: EntityManager,
  key: ConnectionKey,
  cursor: string | null,
  nextCursor: string,
  page: Omit<SyncPage, 'nextCursor'>,
  observers: SyncObservers = {},
): Promise<boolean> {
  return applyPages(em, key, cursor, [{ ...page, nextCursor }], observers);
}

/**
 * Applies consecutive pages, the first fetched from `cursor` and each from the one before's
 * `nextCursor`, in one transaction with the walk's move to the last one's `nextCursor`, under the
 * connection's row lock: each page's statements as if it were applied alone, in order, so its
 * changes and their counts are the same. Counts each page, and reports transactions it could not
 * store (their account is unknown). False when another worker moved the walk on from `cursor` first
 * (this sync then stops): a page is never applied twice, nor one skipped. `remoteIds`: what the walk
 * applying them knows of the stored remote ids, kept across its batches (transaction-sync.store.ts).
 */
export async function applyPages(em: EntityManager, key: ConnectionKey, cursor: string | null, pages: SyncPage[], observers: SyncObservers = {}, remoteIds?: WalkRemoteIds): Promise<boolean> {
  const last = pages.at(-1)!;
  // The pages' statements touch no entity: an empty fork has nothing to flush or merge back.
  const applied = await em.transactional(async (tx) => {
    // A commit lost with a crashed database loses the pages with the cursor that produced them, so
    // they are fetched again: waiting for the WAL flush buys nothing (docs/decisions.md).
    await run(tx, 'set local synchronous_commit = off');
    const walk = await lockWalk(tx, key);
    if (!walk || (walk.syncPageCursor ?? walk.syncCursor) !== cursor) return undefined;
    // Removals wait for the walk's last page: a pending transaction removed here may be taken over
    // by its posted twin on a later page, keeping its id and metadata. One reported again is no
    // removal: a restarted walk reports what an earlier attempt added and still exists (rewindWalk).
    let removals = walk.syncRemovals ?? [];
    const reported = pages.map((page) => {
      const upserts = [...page.added, ...page.modified];
      const again = new Set(upserts.map((transaction) => transaction.remoteId));
      removals = [...removals.filter((remoteId) => !again.has(remoteId)), ...page.removed];
      return { reported: upserts, removals: page.hasMore ? [] : removals };
    });
    const added = pages.flatMap((page) => page.added.map((transaction) => transaction.remoteId));
    const owner = { connectionId: key.id, profileId: key.profileId, provider: walk.provider };
    // Enriched in the same write: the pipeline (each distinct line once a batch), the profile's classifier and its environment's rules (two reads).
    // Until a walk has ended (no sync cursor), nearly every row is new: those that cannot conflict are copied in.
    const changes = await applyTransactionPages(tx, owner, reported, () => enricherFor(tx, key.profileId, memoizedEnrich()), { firstWalk: walk.syncCursor === null, walk: remoteIds });
    const syncChanges = changes.reduce<SyncChanges | null>((sofar, page) => withPageChanges(sofar, page), walk.syncChanges)!;
    await moveWalk(tx, key, { nextCursor: last.nextCursor, hasMore: last.hasMore, changes: syncChanges, removals, added });
    return { provider: walk.provider, changes };
  }, { clear: true });
  if (!applied) return false;
  for (const { added, modified, removed } of applied.changes) observers.metrics?.pageApplied(applied.provider, { added: added.length, modified: modified.length, removed: removed.length });
  const orphans = applied.changes.flatMap((page) => page.orphans);
  if (orphans.length > 0) reportOrphans(observers, key.id, applied.provider, orphans);
  return true;
}

/** The metric label of each kind of value left out. */
const LEFT_OUT_LABELS = { TRANSACTION: 'transaction', BALANCE: 'balance', ORIGINAL_AMOUNT: 'original_amount' } as const;

/** What the provider left out of a snapshot (it could not be stored exactly): one warning per sync, without the values, and counted. */
export function reportLeftOut({ metrics, logger }: SyncObservers, connectionId: string, provider: string, items: UnreadableItem[]): void {
  const counts = { transaction: 0, balance: 0, original_amount: 0 };
  for (const item of items) counts[LEFT_OUT_LABELS[item.what]]++;
  for (const what of Object.values(LEFT_OUT_LABELS)) if (counts[what] > 0) metrics?.leftOut(provider, what, counts[what]);
  const reasons = [...new Set(items.map((item) => `${item.what}: ${item.reason}`))];
  const accountRemoteIds = [...new Set(items.map((item) => item.accountRemoteId))];
  logger?.warn({ connectionId, provider, leftOut: counts, reasons, accountRemoteIds }, 'sync left out what the provider reported in a form it cannot store exactly');
}

function reportOrphans({ metrics, logger }: SyncObservers, connectionId: string, provider: string, orphans: ProviderTransaction[]): void {
  metrics?.transactionsDropped(provider, orphans.length);
  const accountRemoteIds = [...new Set(orphans.map((transaction) => transaction.accountRemoteId))];
  logger?.warn({ connectionId, provider, dropped: orphans.length, accountRemoteIds }, 'sync dropped transactions of accounts the connection does not have');
}
