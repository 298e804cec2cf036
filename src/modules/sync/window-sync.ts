import type { EntityManager } from '@mikro-orm/postgresql';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import type { EndUserPresence, WindowProvider } from '../../providers/provider.ts';
import { ProviderBusy, ProviderError } from '../../providers/provider-errors.ts';
import { storedFrom } from '../transaction/transaction-sync.store.ts';
import type { ConnectionEntity } from '../connection/connection.entity.ts';
import { keyOf } from '../connection/connection.store.ts';
import { applyOwners } from './owner-step.ts';
import { budgetOf, claimRead, upstreamRefusal } from './request-budget.ts';
import { applyAccounts, applyPage, reportLeftOut, type SyncObservers } from './sync-steps.ts';
import { reconcile } from './window-reconciliation.ts';
import { DAY_MS } from '../../lib/dates.ts';

/** A first sync reads this much history; later ones re-read this many days before the last one. */
export const WINDOW = { initialDays: 90, overlapDays: 30 } as const;

/**
 * One sync of a window provider: one upstream request for the accounts and the window's
 * transactions, then the reconciled changes applied as one page (one database transaction, the
 * cursor checked and moved with it), and the accounts' owners when the snapshot carries them. The cursor is the upstream's day of the last sync, so the next
 * window starts `overlapDays` before it. A login over its daily request budget waits for tomorrow
 * (request-budget.ts).
 */
export async function syncWindow(args: {
  em: EntityManager;
  provider: WindowProvider;
  credential: string;
  connection: ConnectionEntity;
  refresh: boolean;
  /** The end-user who asked for this refresh, when they are at the app now. */
  presence: EndUserPresence | undefined;
  cipher: FieldCipher;
  observers: SyncObservers;
  now: Date;
}): Promise<boolean> {
  const { em, provider, credential, connection, presence, now } = args;
  const budget = budgetOf(provider);
  // The upstream said when it answers again: asking before then would only be refused again.
  const refused = upstreamRefusal(connection, budget, presence, now);
  if (refused !== null) throw new ProviderBusy('the upstream refuses reads of this login until the time it gave', refused);
  if (budget) await claimRead(em, keyOf(connection), budget, { refresh: args.refresh, presence }, now);
  const cursor = connection.syncCursor ?? null;
  const snapshot = await provider.readWindow(credential, windowStart(cursor, now), presence);
  await applyAccounts(em, connection, snapshot.accounts, args.cipher);
  const stored = await storedFrom(em, connection.profile.id, connection.id, snapshot.start);
  const page = reconcile(stored, snapshot, snapshot.end, `${snapshot.end}.${Date.now()}`);
  if (!(await applyPage(em, keyOf(connection), cursor, page.nextCursor, page, args.observers))) return false;
  // Owners read with the accounts (no request of their own), for a connection with the product.
  if (snapshot.owners && connection.products.includes('ACCOUNT_OWNERS') && provider.capabilities.has('ACCOUNT_OWNERS')) await applyOwners(em, connection, snapshot.owners, args.cipher);
  if (snapshot.unreadable?.length) reportLeftOut(args.observers, connection.id, provider.name, snapshot.unreadable);
  if (snapshot.attention) throw new ProviderError('ERROR_REPAIRABLE', snapshot.attention);
  return true;
}

/** Where the next window starts: `initialDays` back for a first sync, else `overlapDays` before the last one. */
export function windowStart(cursor: string | null, now: Date): string {
  const last = cursor ? Date.parse(`${cursor.slice(0, 10)}T00:00:00Z`) : Number.NaN;
  const from = Number.isNaN(last) ? now.getTime() - WINDOW.initialDays * DAY_MS : last - WINDOW.overlapDays * DAY_MS;
  return new Date(from).toISOString().slice(0, 10);
}
