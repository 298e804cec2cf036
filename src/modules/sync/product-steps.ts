import type { EntityManager } from '@mikro-orm/postgresql';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import type { Provider } from '../../providers/provider.ts';
import type { InvestmentSnapshot } from '../../providers/provider-investments.ts';
import type { ProviderLiability } from '../../providers/provider-liabilities.ts';
import type { ConnectionEntity } from '../connection/connection.entity.ts';
import { presentConnection } from '../connection/connection.presenter.ts';
import { connectionOrFail, keyOf } from '../connection/connection.store.ts';
import { recordEvent } from '../event/event.service.ts';
import { reconcileActivity, replaceHoldings, type Unmatched } from '../investment/investment.store.ts';
import { replaceLiabilities } from '../liability/liability.store.ts';
import { applyListedStatements, type QueueFetches } from '../statement/statement.service.ts';
import { upsertSecurities } from '../security/security.store.ts';
import type { SyncObservers } from './sync-steps.ts';
import { applyOwners } from './owner-step.ts';
import { WINDOW } from './window-sync.ts';
import { DAY_MS } from '../../lib/dates.ts';

/*
 * The sync's steps for products beyond cash, after the accounts step: what the provider reports of
 * investments, liabilities and account owners replaces what is stored, each in one database transaction under the
 * connection's row lock (docs/decisions/investments-holdings-snapshot.md). Re-running a step with
 * the same report changes nothing, so a crash before its commit, a retry or a second worker never
 * duplicates or loses a row.
 */

/**
 * Where a connection's first sync reads investment activity from: before any upstream's history, so
 * each reports all it keeps (Plaid: 24 months; the sandbox: the connection's whole history) by its
 * own clock, and the snapshot's `start` says where that was.
 */
export const WHOLE_HISTORY = '1970-01-01';

/** Where a sync queues the fetch of the statements it lists; absent, statements are not listed (tests of the engine alone). */
export interface ProductQueues {
  queueStatementFetches?: QueueFetches;
}

/** Syncs the products the connection has and its provider offers: investments, then liabilities, then account owners, then the statements listed. */
export async function syncProducts(em: EntityManager, connection: ConnectionEntity, provider: Provider, credential: string, deps: SyncObservers & ProductQueues & { cipher: FieldCipher }): Promise<void> {
  const offers = (product: 'INVESTMENTS' | 'LIABILITIES' | 'ACCOUNT_OWNERS' | 'STATEMENTS') => connection.products.includes(product) && provider.capabilities.has(product);
  if (offers('INVESTMENTS') && provider.investments) {
    await applyInvestments(em, connection, provider.name, await provider.investments(credential, investmentStart(connection.lastSyncedAt)), deps);
  }
  if (offers('LIABILITIES') && provider.liabilities) await applyLiabilities(em, connection, provider.name, await provider.liabilities(credential));
  if (offers('ACCOUNT_OWNERS') && provider.owners) await applyOwners(em, connection, await provider.owners(credential), deps.cipher);
  if (offers('STATEMENTS') && provider.statements && deps.queueStatementFetches) {
    await applyListedStatements(em, connection, await provider.statements(credential), deps.queueStatementFetches);
  }
}

/** Where investment activity is read from: its whole history on a first sync, else the transactions window's overlap before the last one. */
export function investmentStart(lastSyncedAt: Date | null | undefined): string {
  return lastSyncedAt ? new Date(lastSyncedAt.getTime() - WINDOW.overlapDays * DAY_MS).toISOString().slice(0, 10) : WHOLE_HISTORY;
}

/**
 * Stores an investment snapshot: its securities, the connection's holdings replaced by the
 * snapshot's, and (when the upstream reports activity) the activity of its window reconciled; one
 * `holdings.updated` when any of it changed. What it names that cannot be matched (an unknown
 * account or security) is logged and counted once committed.
 */
export async function applyInvestments(em: EntityManager, connection: ConnectionEntity, provider: string, snapshot: InvestmentSnapshot, observers: SyncObservers = {}): Promise<void> {
  const unmatched = await em.transactional(async (tx) => {
    const locked = await connectionOrFail(tx, keyOf(connection), { lock: true, profile: true });
    const owner = { connectionId: connection.id, profileId: connection.profile.id, provider };
    const securityIds = await upsertSecurities(tx, provider, snapshot.securities);
    const holdings = await replaceHoldings(tx, owner, snapshot.holdings, securityIds);
    const activity = snapshot.transactions ? await reconcileActivity(tx, owner, snapshot, snapshot.transactions, securityIds) : undefined;
    if (holdings.written + holdings.removed + (activity?.written ?? 0) + (activity?.removed ?? 0) > 0) {
      recordEvent(tx, locked.environment.id, 'holdings.updated', locked.profile, presentConnection(locked));
    }
    return { holdings: holdings.unmatched, activity: activity?.unmatched ?? { dropped: [], unlinked: [] } };
  });
  reportUnmatched(observers, connection.id, provider, unmatched);
}

/**
 * Says what a snapshot named that could not be matched: counts per record and what is missing, and
 * one warning with the counts and the upstream's ids of the accounts and securities (opaque ids,
 * nothing about the person).
 */
function reportUnmatched({ metrics, logger }: SyncObservers, connectionId: string, provider: string, unmatched: { holdings: Unmatched; activity: Unmatched }): void {
  const { holdings, activity } = unmatched;
  if (holdings.dropped.length + activity.dropped.length + activity.unlinked.length === 0) return;
  const count = (list: Unmatched['dropped'], missing: 'account' | 'security') => list.filter((row) => row.missing === missing).length;
  const counts = {
    holdingsOfUnknownAccounts: count(holdings.dropped, 'account'),
    holdingsOfUnknownSecurities: count(holdings.dropped, 'security'),
    investmentTransactionsOfUnknownAccounts: activity.dropped.length,
    investmentTransactionsOfUnknownSecurities: activity.unlinked.length,
  };
  metrics?.investmentsUnmatched(provider, 'holding', 'account', counts.holdingsOfUnknownAccounts);
  metrics?.investmentsUnmatched(provider, 'holding', 'security', counts.holdingsOfUnknownSecurities);
  metrics?.investmentsUnmatched(provider, 'investment_transaction', 'account', counts.investmentTransactionsOfUnknownAccounts);
  metrics?.investmentsUnmatched(provider, 'investment_transaction', 'security', counts.investmentTransactionsOfUnknownSecurities);
  const accountRemoteIds = [...new Set([...holdings.dropped, ...activity.dropped].filter((row) => row.missing === 'account').map((row) => row.accountRemoteId))];
  const securityRemoteIds = [...new Set([...holdings.dropped.filter((row) => row.missing === 'security').map((row) => row.securityRemoteId!), ...activity.unlinked.map((row) => row.securityRemoteId)])];
  logger?.warn({ connectionId, provider, ...counts, accountRemoteIds, securityRemoteIds }, 'sync found holdings or investment transactions naming an unknown account or security');
}

/** Stores the connection's liabilities as reported; one `liabilities.updated` when any changed. */
export async function applyLiabilities(em: EntityManager, connection: ConnectionEntity, provider: string, reported: ProviderLiability[]): Promise<void> {
  await em.transactional(async (tx) => {
    const locked = await connectionOrFail(tx, keyOf(connection), { lock: true, profile: true });
    const changes = await replaceLiabilities(tx, { connectionId: connection.id, profileId: connection.profile.id, provider }, reported);
    if (changes > 0) recordEvent(tx, locked.environment.id, 'liabilities.updated', locked.profile, presentConnection(locked));
  });
}
