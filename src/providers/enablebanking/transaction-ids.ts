import { createHash } from 'node:crypto';
import type { EbTransaction } from './api.ts';

/*
 * Stable remoteIds for Enable Banking entries (docs/decisions/providers-enablebanking-transactions.md).
 * Many banks report no `entry_reference`, and EB's `transaction_id` may change between reads, so an
 * id is derived from what the bank reports. Every function here is pure: the same read gives the
 * same ids, whatever the window, the session or the order of identical entries.
 */

/** An entry as the adapter keeps it: Tributary's status already decided. */
export interface StatusedEntry {
  entry: EbTransaction;
  status: 'PENDING' | 'POSTED';
}

export interface EntryIds {
  remoteId: string;
  /** A posted entry: the id it had while pending (the engine takes over that row if it is stored and no longer reported). */
  pendingRemoteId: string | null;
}

/**
 * The account's part of every id: a digest of EB's `identification_hash`, which stays the same across
 * sessions (a re-consent reissues account uids, not transactions).
 */
export function accountKey(identificationHash: string): string {
  return digest([identificationHash]).slice(0, 12);
}

/**
 * The ids of one account's entries, in the order reported:
 * - a posted entry with an `entry_reference` (unique and immutable per account, EB says): `<account>:r:<reference>`;
 * - a posted entry without: `<account>:b:<digest of what it says>:<n>`;
 * - a pending entry (references may change when it books, so they are not used): `<account>:p:<digest>:<n>`;
 * `n` counts identical twins on the account (same digest) in the order reported: twins are alike in
 * every part of the digest, so which of them is first changes nothing stored. Pending twins count on
 * from the posted entries they may become, so the first to book names the first pending id and the
 * twin still pending keeps the second. A posted entry also
 * names the pending id it would have had (`pendingRemoteId`), from what a booking keeps of a card
 * payment: the day it was made, the amount and currency, the direction and the counterpart.
 */
export function entryIds(account: string, entries: StatusedEntry[]): EntryIds[] {
  const booked = new Occurrences();
  const bookedAsPending = new Occurrences();
  // Pending twins count after the booked ones: when one of two booked, the one left keeps its id.
  const pending = new Occurrences(countBy(entries.filter(({ status }) => status === 'POSTED').map(({ entry }) => pendingKey(entry))));
  return entries.map(({ entry, status }) => {
    if (status === 'PENDING') return { remoteId: `${account}:p:${pending.next(pendingKey(entry))}`, pendingRemoteId: null };
    const reference = entry.entry_reference?.trim();
    const remoteId = reference ? `${account}:r:${reference}` : `${account}:b:${booked.next(bookedKey(entry))}`;
    return { remoteId, pendingRemoteId: `${account}:p:${bookedAsPending.next(pendingKey(entry))}` };
  });
}

/** What a booked entry says, all of it that identifies it. */
function bookedKey(entry: EbTransaction): string {
  return digest([
    entry.booking_date ?? entry.value_date ?? entry.transaction_date ?? '',
    entry.value_date ?? '',
    canonicalAmount(entry.transaction_amount.amount),
    entry.transaction_amount.currency,
    entry.credit_debit_indicator,
    (entry.remittance_information ?? []).join('\n'),
    counterpartName(entry) ?? '',
    counterpartAccount(entry) ?? '',
    entry.reference_number ?? '',
  ]);
}

/** What stays the same when a pending entry books: its own day, the money, the direction and the counterpart. */
function pendingKey(entry: EbTransaction): string {
  return digest([
    entry.transaction_date ?? entry.value_date ?? entry.booking_date ?? '',
    canonicalAmount(entry.transaction_amount.amount),
    entry.transaction_amount.currency,
    entry.credit_debit_indicator,
    (counterpartName(entry) ?? '').toLowerCase().replace(/\s+/g, ' ').trim(),
  ]);
}

/** Who the money went to (a debit) or came from (a credit). */
export function counterpartName(entry: EbTransaction): string | null {
  const party = entry.credit_debit_indicator === 'DBIT' ? entry.creditor : entry.debtor;
  return party?.name?.trim() || null;
}

function counterpartAccount(entry: EbTransaction): string | null {
  const account = entry.credit_debit_indicator === 'DBIT' ? entry.creditor_account : entry.debtor_account;
  return account?.iban ?? account?.other?.identification ?? null;
}

/** `12.50`, `12.5` and `012.500` are one amount. */
function canonicalAmount(amount: string): string {
  const [whole = '0', fraction = ''] = amount.replace(/^-/, '').split('.');
  return `${whole.replace(/^0+(?=\d)/, '')}.${fraction.replace(/0+$/, '')}`;
}

function digest(parts: string[]): string {
  // JSON keeps the parts apart: ["a b", ""] and ["a", "b "] differ.
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 22);
}

/** `key:0`, `key:1`, … for repeated keys (from `start`'s count for a key). */
class Occurrences {
  readonly #seen: Map<string, number>;

  constructor(start = new Map<string, number>()) {
    this.#seen = start;
  }

  next(key: string): string {
    const n = this.#seen.get(key) ?? 0;
    this.#seen.set(key, n + 1);
    return `${key}:${n}`;
  }
}

function countBy(keys: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  return counts;
}
