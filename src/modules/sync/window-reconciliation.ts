import type { ProviderTransaction, SyncPage, WindowSnapshot } from '../../providers/provider-records.ts';
import type { StoredTransaction } from '../transaction/transaction-sync.store.ts';
import { DAY_MS } from '../../lib/dates.ts';

/** The rules of docs/decisions.md ("Window reconciliation"), in one place. */
export const RECONCILIATION = {
  /** A pending charge may post up to this many days after (or one day before) its own date. */
  postingDays: { before: 1, after: 7 },
  /** A card-present charge may post larger by a tip of up to this share of the authorised amount. */
  tipShare: 0.3,
  /** A pending entry that vanished without a posted twin is removed this many days after its date. */
  pendingGraceDays: 5,
} as const;

/** Words that say how a charge was made, not who it was with. */
const NOISE = new Set(['pos', 'purchase', 'debit', 'credit', 'card', 'pending', 'auth', 'authorization', 'payment', 'www', 'com', 'inc', 'llc', 'the', 'visa', 'mastercard', 'recurring', 'online', 'ach']);

/**
 * Turns what a window provider reports into the changes to apply, as one page (so it is applied like
 * a cursor provider's, in one database transaction with the same events):
 * - a reported transaction stored under its provider id is upserted in place;
 * - a posted one that is new takes over a stored pending one that the window no longer reports, on
 *   the same account, with an equal amount (or a larger debit within a tip), posted within days of
 *   it and described alike: same Tributary id and metadata, never two rows for one purchase;
 * - a posted one naming the pending id it had (`pendingRemoteId`, from providers that can tell)
 *   takes over that stored pending row when the window no longer reports it;
 * - one whose provider id changed but whose account, date, amount and description are the same is
 *   the same transaction (its row is taken over);
 * - a posted transaction inside the window that is no longer reported is removed; a pending one
 *   only once its grace period is over; nothing older than the window is ever removed; nothing is
 *   removed from an account whose window left an entry out (`unreadable`: it may be one of them).
 * `stored` must hold every stored transaction dated from the window's start, and every pending one.
 */
export function reconcile(stored: StoredTransaction[], snapshot: Pick<WindowSnapshot, 'start' | 'transactions' | 'unreadable'>, today: string, nextCursor: string): SyncPage {
  const reportedIds = new Set(snapshot.transactions.map((transaction) => transaction.remoteId));
  const storedIds = new Set(stored.map((transaction) => transaction.remoteId));
  const orphans = stored.filter((transaction) => !reportedIds.has(transaction.remoteId));
  const taken = new Set<string>();
  const added: ProviderTransaction[] = [];
  const fresh = snapshot.transactions.filter((transaction) => !storedIds.has(transaction.remoteId));
  for (const transaction of snapshot.transactions) {
    if (storedIds.has(transaction.remoteId)) {
      added.push({ ...transaction, pendingRemoteId: null });
      continue;
    }
    const twin = namedPending(transaction, orphans, taken) ?? bestTwin(transaction, orphans, taken, fresh);
    if (twin) taken.add(twin.remoteId);
    added.push({ ...transaction, pendingRemoteId: twin?.remoteId ?? null });
  }
  const windowStart = dayNumber(snapshot.start);
  const leftOut = new Set((snapshot.unreadable ?? []).filter(({ what }) => what === 'TRANSACTION').map(({ accountRemoteId }) => accountRemoteId));
  const removed = orphans
    .filter((transaction) => !taken.has(transaction.remoteId) && !leftOut.has(transaction.accountRemoteId))
    .filter((transaction) =>
      transaction.status === 'POSTED'
        ? dayNumber(transaction.date) > windowStart
        : dayNumber(today) - dayNumber(transaction.date) > RECONCILIATION.pendingGraceDays,
    )
    .map((transaction) => transaction.remoteId);
  return { added, modified: [], removed, nextCursor, hasMore: false };
}

/** The vanished pending row a new posted transaction names as its own pending self, on the same account. */
function namedPending(transaction: ProviderTransaction, orphans: StoredTransaction[], taken: Set<string>): StoredTransaction | undefined {
  if (transaction.status !== 'POSTED' || !transaction.pendingRemoteId || taken.has(transaction.pendingRemoteId)) return undefined;
  return orphans.find((row) => row.remoteId === transaction.pendingRemoteId && row.status === 'PENDING' && row.accountRemoteId === transaction.accountRemoteId);
}

/** The stored row a new reported transaction continues, if any: its pending self, or itself under an old id. */
function bestTwin(transaction: ProviderTransaction, orphans: StoredTransaction[], taken: Set<string>, fresh: ProviderTransaction[]): StoredTransaction | undefined {
  let best: { row: StoredTransaction; score: number } | undefined;
  for (const row of orphans) {
    if (taken.has(row.remoteId) || row.accountRemoteId !== transaction.accountRemoteId) continue;
    const score = sameTransaction(row, transaction) ? 0 : row.status === 'PENDING' && transaction.status === 'POSTED' ? postedTwinScore(row, transaction) : undefined;
    if (score === undefined) continue;
    // An exact re-issue of another new transaction's twin would steal it: only take exact matches first.
    if (score > 0 && fresh.some((other) => other !== transaction && sameTransaction(row, other))) continue;
    if (!best || score < best.score) best = { row, score };
  }
  return best?.row;
}

/** Same account (checked by the caller), date, amount, status and description: the id was re-issued. */
function sameTransaction(row: StoredTransaction, transaction: ProviderTransaction): boolean {
  return (
    row.status === transaction.status &&
    row.date === transaction.date &&
    cents(row.amount) === cents(transaction.amount) &&
    normalize(row.description) === normalize(transaction.description)
  );
}

/** How well a posted transaction matches a vanished pending one (lower is better), or undefined. */
function postedTwinScore(pending: StoredTransaction, posted: ProviderTransaction): number | undefined {
  const days = dayNumber(posted.date) - dayNumber(pending.date);
  if (days < -RECONCILIATION.postingDays.before || days > RECONCILIATION.postingDays.after) return undefined;
  const authorised = cents(pending.amount);
  const settled = cents(posted.amount);
  const exact = authorised === settled;
  // A tip makes a debit (negative) larger: settled ≤ authorised, by at most tipShare of it.
  const tipped = authorised < 0n && settled < authorised && (-settled) * 100n <= (-authorised) * BigInt(100 + RECONCILIATION.tipShare * 100);
  if (!exact && !tipped) return undefined;
  if (!similar(pending.description, posted.description)) return undefined;
  return (exact ? 1 : 100) + Math.abs(days);
}

/** Descriptions name the same counterparty: one's words contain the other's, or they share most of them. */
export function similar(a: string, b: string): boolean {
  const left = words(a);
  const right = words(b);
  if (left.size === 0 || right.size === 0) return normalize(a) === normalize(b);
  let shared = 0;
  for (const word of left) if (right.has(word)) shared++;
  return shared === Math.min(left.size, right.size) || shared / new Set([...left, ...right]).size >= 0.5;
}

function words(description: string): Set<string> {
  return new Set(normalize(description).split(' ').filter((word) => word.length >= 3 && !NOISE.has(word)));
}

function normalize(description: string): string {
  return description.toLowerCase().replace(/[^a-z]+/g, ' ').trim();
}

/** An exact decimal as hundredths of a cent (amounts carry at most four fraction digits). */
function cents(amount: string): bigint {
  const [whole = '0', fraction = ''] = amount.replace(/^-/, '').split('.');
  const value = BigInt(whole) * 10_000n + BigInt((fraction + '0000').slice(0, 4));
  return amount.startsWith('-') ? -value : value;
}

function dayNumber(date: string): number {
  return Math.floor(Date.parse(`${date}T00:00:00Z`) / DAY_MS);
}
