import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../../errors.ts';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import { ProviderBusy, ProviderError, type WindowProvider } from '../../providers/provider.ts';
import { storedFrom } from '../transaction/transaction.store.ts';
import type { ConnectionEntity } from '../connection/connection.entity.ts';
import { claimUpstreamRequest } from '../connection/connection.store.ts';
import { applyAccounts, applyPage, type SyncObservers } from './sync-steps.ts';
import { reconcile } from './window-reconciliation.ts';

/** A first sync reads this much history; later ones re-read this many days before the last one. */
export const WINDOW = { initialDays: 90, overlapDays: 30 } as const;
/** Requests of a budgeted login kept for transactions refreshes: scheduled syncs and retries stop short of them. */
export const REFRESH_RESERVE = 4;
const DAY_MS = 86_400_000;

/**
 * One sync of a window provider: one upstream request for the accounts and the window's
 * transactions, then the reconciled changes applied as one page (one database transaction, the
 * cursor checked and moved with it). The cursor is the upstream's day of the last sync, so the next
 * window starts `overlapDays` before it. A login over its daily request budget waits for tomorrow.
 */
export async function syncWindow(args: {
  em: EntityManager;
  provider: WindowProvider;
  credential: string;
  connection: ConnectionEntity;
  refresh: boolean;
  cipher: FieldCipher;
  observers: SyncObservers;
}): Promise<boolean> {
  const { em, provider, credential, connection } = args;
  if (provider.requestBudgetPerDay) await claimRequest(em, connection.id, provider.requestBudgetPerDay - (args.refresh ? 0 : REFRESH_RESERVE));
  const cursor = connection.syncCursor ?? null;
  const snapshot = await provider.readWindow(credential, windowStart(cursor, new Date()));
  await applyAccounts(em, connection, snapshot.accounts, args.cipher);
  const stored = await storedFrom(em, connection.id, snapshot.start);
  const page = reconcile(stored, snapshot, snapshot.end, `${snapshot.end}.${Date.now()}`);
  if (!(await applyPage(em, connection.id, cursor, page.nextCursor, page, args.observers))) return false;
  if (snapshot.attention) throw new ProviderError('ERROR_REPAIRABLE', snapshot.attention);
  return true;
}

/** Where the next window starts: `initialDays` back for a first sync, else `overlapDays` before the last one. */
export function windowStart(cursor: string | null, now: Date): string {
  const last = cursor ? Date.parse(`${cursor.slice(0, 10)}T00:00:00Z`) : Number.NaN;
  const from = Number.isNaN(last) ? now.getTime() - WINDOW.initialDays * DAY_MS : last - WINDOW.overlapDays * DAY_MS;
  return new Date(from).toISOString().slice(0, 10);
}

/** Counts one upstream request against the login's budget for the current UTC day; over it, the sync waits for the next day. */
async function claimRequest(em: EntityManager, connectionId: string, limit: number): Promise<void> {
  const now = new Date();
  if (!(await claimUpstreamRequest(em, connectionId, now.toISOString().slice(0, 10), limit))) throw new BudgetUsedUp(secondsUntilTomorrow(now));
}

/** The login has no upstream request left today: the scheduled syncs of tomorrow pick it up (no retry is queued). */
export class BudgetUsedUp extends ProviderBusy {
  constructor(retryAfterSeconds: number) {
    super("the login's daily request budget is used up", retryAfterSeconds);
  }
}

/** Refuses a transactions refresh that the login's daily request budget could not pay for: 429 until tomorrow. */
export function assertBudgetLeft(connection: ConnectionEntity, perDay: number | undefined, now = new Date()): void {
  const used = connection.upstreamRequests;
  if (!perDay || !used || used.day !== now.toISOString().slice(0, 10) || used.count < perDay) return;
  const seconds = secondsUntilTomorrow(now);
  throw new AppError(429, 'PROVIDER_BUDGET_USED', `This connection's provider allows ${perDay} upstream requests a day, and today's are used`, {
    instruction: `Retry in ${seconds} seconds, when the provider's day starts again.`,
    headers: { 'Retry-After': String(seconds) },
  });
}

/** Seconds until the next UTC day, when a login's request budget starts again. */
export function secondsUntilTomorrow(now: Date): number {
  return Math.max(1, Math.ceil((Math.floor(now.getTime() / DAY_MS + 1) * DAY_MS - now.getTime()) / 1000));
}
