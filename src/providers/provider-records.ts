/** What a provider reports of a login's accounts and transactions, page by page (CURSOR) or window by window (WINDOW). */

import type { ProviderAccountOwners } from './provider-owners.ts';

export type AccountKind = 'DEPOSITORY' | 'CREDIT' | 'LOAN' | 'INVESTMENT';

export interface ProviderAccount {
  remoteId: string;
  name: string;
  kind: AccountKind;
  subtype: string | null;
  state: 'OPEN' | 'CLOSED';
  mask: string | null;
  currencyCode: string;
  balance: ProviderBalance;
  /**
   * What identifies the account at its institution whatever id the upstream gives it (an IBAN, a
   * full account number): matches accounts across a re-consent that reissues remoteIds. Never stored
   * or shown as is (only a keyed hash of it).
   */
  identifier?: string | null;
}

export interface ProviderBalance {
  at: Date;
  available: string | null;
  current: string | null;
  limit: string | null;
}

export interface ProviderTransaction {
  remoteId: string;
  accountRemoteId: string;
  /** Set on a posted transaction that replaces a pending one: the pending one's remoteId. */
  pendingRemoteId: string | null;
  date: string;
  description: string;
  amount: string;
  status: 'PENDING' | 'POSTED';
  /**
   * When the payment was made in another currency than the account's: the amount in that currency
   * (same sign as `amount`) and its ISO 4217 code, as the upstream reports them.
   */
  originalAmount?: string | null;
  originalCurrencyCode?: string | null;
  /** The provider's own data, with a `timestamp`, stored under `remoteData[provider.name]`. */
  raw: Record<string, unknown>;
  /** Enrichment (categories, counterpartyName, logo, website), stored under `remoteData.enrichment`. */
  enrichment: Record<string, unknown> | null;
}

export interface SyncPage {
  added: ProviderTransaction[];
  modified: ProviderTransaction[];
  /** remoteIds of transactions the institution no longer reports. */
  removed: string[];
  nextCursor: string;
  hasMore: boolean;
  /**
   * Accounts the upstream reported with the page (Plaid: those its transactions belong to), stored
   * before the page when the sync's account list lacks them, so none of its transactions is dropped.
   */
  accounts?: ProviderAccount[];
}

export interface WindowSnapshot {
  /** First day the window covers (transactions before it are not reported, so never removed because of it). */
  start: string;
  /** The upstream's today: the window's last day. */
  end: string;
  accounts: ProviderAccount[];
  transactions: ProviderTransaction[];
  /** The upstream delivered the data but says the login needs the end-user's attention. */
  attention: string | null;
  /** What the upstream reported that cannot be stored exactly, left out rather than guessed or rounded; the sync logs and counts it. */
  unreadable?: UnreadableItem[];
  /** ACCOUNT_OWNERS, for an upstream that reports owners with the accounts themselves (Enable Banking): read at no extra request. */
  owners?: ProviderAccountOwners[];
}

/** One value left out of a snapshot. */
export interface UnreadableItem {
  accountRemoteId: string;
  /** `TRANSACTION`: the entry is left out; `BALANCE`: a balance figure (current, available, limit) is reported as unknown; `ORIGINAL_AMOUNT`: the entry is kept without it. */
  what: 'TRANSACTION' | 'BALANCE' | 'ORIGINAL_AMOUNT';
  /** Why, in words that quote nothing of the data. */
  reason: string;
}
