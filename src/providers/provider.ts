import type { AccountKind, AccountState } from '../modules/account/account.entity.ts';
import type { ConnectionErrorStatus, Product } from '../modules/connection/connection.entity.ts';
import type { TransactionStatus } from '../modules/transaction/transaction.entity.ts';

/**
 * The contract between Tributary and an upstream aggregator (the sandbox, later Plaid, MX, …). An
 * adapter translates its upstream into these normalised shapes; nothing else in the service knows
 * which provider it talks to. Amounts are exact decimal strings (at most 4 fraction digits) already
 * in Tributary's sign conventions (see the contract's Balance and Transaction).
 */
export interface Provider {
  /** Stable name, used as the key of this provider's sub-object in `Transaction.remoteData`. */
  readonly name: string;
  institutions(): Institution[];
  /**
   * Logs in at an institution and resolves to the access token stored (encrypted) on the connection.
   * With `existingAccessToken` it logs the same connection in again (repairing it, "update mode").
   * Bad credentials are not refused here: like real aggregators, the first sync reports them.
   */
  connect(request: ConnectRequest, existingAccessToken?: string): Promise<string>;
  /** Every account of the login with its current balance. */
  accounts(accessToken: string): Promise<ProviderAccount[]>;
  /**
   * One page of transaction changes since `cursor` (null: from the beginning). Keep calling with
   * `nextCursor` while `hasMore`; the last page's `nextCursor` is the position to sync from next time.
   * Replaying a cursor returns the same page, so a page whose application failed can be retried.
   */
  syncTransactions(accessToken: string, cursor: string | null): Promise<SyncPage>;
  /** Asks the institution for the account's balance right now (a real-time refresh). */
  refreshBalance(accessToken: string, accountRemoteId: string): Promise<ProviderBalance>;
  /** Verified ACH numbers of a depository account; the number may be a tokenized surrogate. */
  accountNumbers(accessToken: string, accountRemoteId: string): Promise<{ number: string; routing: string }>;
  /** Revokes Tributary's access upstream. */
  disconnect(accessToken: string): Promise<void>;
}

export interface Institution {
  id: string;
  name: string;
  products: Product[];
  description: string;
}

export interface ConnectRequest {
  institutionId: string;
  username: string;
  password: string;
  products: Product[];
}

export interface ProviderAccount {
  remoteId: string;
  name: string;
  kind: AccountKind;
  subtype: string | null;
  state: AccountState;
  mask: string | null;
  currencyCode: string;
  balance: ProviderBalance;
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
  status: TransactionStatus;
  /** The provider's own data (guid, raw descriptions, …), stored under `remoteData[provider.name]`. */
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
}

/** An upstream failure that puts the connection in an error state. */
export class ProviderError extends Error {
  readonly status: ConnectionErrorStatus;

  constructor(status: ConnectionErrorStatus, message: string) {
    super(message);
    this.status = status;
  }
}
