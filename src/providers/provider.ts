import type { Institution, InstitutionQuery, LinkCompletion, LinkedLogin, LinkSession, LinkStart } from './link-flow.ts';
import type { InvestmentSnapshot } from './provider-investments.ts';
import type { ProviderLiability } from './provider-liabilities.ts';
import type { ProviderAccountOwners } from './provider-owners.ts';
import type { ProviderStatement, StatementDocument, StatementPeriod, StatementsRefreshed } from './provider-statements.ts';
import type { ProviderAccount, ProviderBalance, SyncPage, WindowSnapshot } from './provider-records.ts';

/**
 * The contract between Tributary and an upstream aggregator (the built-in sandbox, Plaid, …). An
 * adapter translates its upstream into these normalised shapes; nothing else in the service knows
 * which provider it talks to, and this layer knows nothing of the service's modules: its types are
 * its own. Amounts are exact decimal strings already in Tributary's sign conventions (positive =
 * money in; owed balances and card limits negative).
 */
export type Provider = CursorProvider | WindowProvider;

/** What every provider does, whatever its sync style. */
export interface ProviderBase {
  /** Stable name, stored on each connection and used as its key in `Transaction.remoteData`. */
  readonly name: string;
  /** What the provider offers; REST operations a connection's provider cannot do answer 403. */
  readonly capabilities: ReadonlySet<Capability>;
  /**
   * Upstream reads a login may make per UTC day (SimpleFIN Bridge: about 24; PSD2 banks: 4 unattended
   * reads of each account, and every read reads each account once); absent: unlimited.
   */
  readonly requestBudgetPerDay?: number;
  /** The budget counts unattended reads only: a read with the end-user present (`EndUserPresence`) is free (PSD2). */
  readonly budgetsUnattendedOnly?: boolean;
  /**
   * Institutions an end-user can link through this provider, by country (ISO 3166 alpha-2) and a
   * name fragment; for providers whose end-user picks a bank before leaving for it (REDIRECT).
   */
  searchInstitutions?(query: InstitutionQuery): Promise<Institution[]>;
  /**
   * What the connect page needs to open the provider's own UI (the sandbox: its credential form;
   * Plaid: a link token). With `existingCredential` the UI repairs that login ("update mode").
   */
  startLink(request: LinkStart): Promise<LinkSession>;
  /**
   * Turns what the provider's UI returned into the credential stored (encrypted) on the connection.
   * Refuses input the provider cannot use with a `LinkRefused`, and a sign-in the institution
   * rejects on the spot (a wrong password) with reason `CREDENTIALS`; a login that fails later
   * (an expired MFA, a changed password) is the syncs' to report.
   */
  completeLink(request: LinkCompletion): Promise<LinkedLogin>;
  /** Every account of the login with its current balance. */
  accounts(credential: string): Promise<ProviderAccount[]>;
  /** Asks the upstream to look for new transactions now (TRANSACTIONS_REFRESH). */
  refreshTransactions(credential: string): Promise<void>;
  /** Asks the institution for the account's balance right now (BALANCE_REFRESH). */
  refreshBalance(credential: string, accountRemoteId: string): Promise<ProviderBalance>;
  /**
   * Verified ACH numbers of a depository account (ACCOUNT_NUMBERS); may be a tokenized surrogate.
   * Null when the upstream offers none for this account (Plaid's Auth covers checking, savings and
   * cash management accounts only): the account stays unverified, the others are unaffected.
   */
  accountNumbers(credential: string, accountRemoteId: string): Promise<{ number: string; routing: string } | null>;
  /** Revokes Tributary's access upstream. */
  disconnect(credential: string): Promise<void>;
  /**
   * Verifies an inbound webhook by the provider's own scheme (throws `WebhookUnverified`), then maps
   * it to what Tributary should do. Only providers with the WEBHOOKS capability receive any.
   */
  receiveWebhook(request: InboundWebhook): Promise<WebhookAction[]>;
  /**
   * INVESTMENTS: what the login's investment accounts hold now, the securities they name, and
   * (INVESTMENT_TRANSACTIONS) their investment activity from `start` (a date) until today, every page
   * of it; a `start` before what the upstream keeps means all it keeps, and the snapshot's `start`
   * says where that began. Present only on providers with the INVESTMENTS capability.
   */
  investments?(credential: string, start: string): Promise<InvestmentSnapshot>;
  /** LIABILITIES: the debt details of the login's credit and loan accounts. Present only with the LIABILITIES capability. */
  liabilities?(credential: string): Promise<ProviderLiability[]>;
  /**
   * ACCOUNT_OWNERS: who holds each account of the login, as the institution knows them. Present with
   * the ACCOUNT_OWNERS capability, unless the provider reports owners in its window snapshot instead.
   */
  owners?(credential: string): Promise<ProviderAccountOwners[]>;
  /** STATEMENTS: the statements the upstream offers for the login's accounts. Present only with the STATEMENTS capability. */
  statements?(credential: string): Promise<ProviderStatement[]>;
  /** STATEMENTS: one listed statement's PDF, with the digest the upstream gives for it. */
  statementDocument?(credential: string, statement: Pick<ProviderStatement, 'remoteId' | 'accountRemoteId'>): Promise<StatementDocument>;
  /** STATEMENTS: asks the upstream for the statements of a period (up to two years back); absent when it offers all it has unasked. */
  refreshStatements?(credential: string, period: StatementPeriod): Promise<StatementsRefreshed>;
}

/** An upstream with a change feed (Plaid, the sandbox): Tributary applies the changes it reports. */
export interface CursorProvider extends ProviderBase {
  readonly syncStyle: 'CURSOR';
  /**
   * One page of transaction changes since `cursor` (null: from the beginning). Keep calling with
   * `nextCursor` while `hasMore`; the last page's `nextCursor` is the position to sync from next time.
   * Replaying a cursor returns the same changes, so a page whose application failed can be retried.
   * A `SyncRestart` thrown mid-walk means: start again from the cursor the walk began with.
   */
  syncTransactions(credential: string, cursor: string | null): Promise<SyncPage>;
}

/**
 * An upstream without a change feed (SimpleFIN, Teller, Enable Banking): it reports what a date
 * window holds, and Tributary reconciles that with what it stored (added, modified, removed).
 */
export interface WindowProvider extends ProviderBase {
  readonly syncStyle: 'WINDOW';
  /**
   * The accounts and every transaction (pending included) from `start` (a date) until today. With
   * `presence` the end-user asked for this read and is at the app now: PSD2 upstreams pass it on
   * (PSU headers), which lifts the bank's limit on unattended reads.
   */
  readWindow(credential: string, start: string, presence?: EndUserPresence): Promise<WindowSnapshot>;
}

/** The end-user behind a read they asked for themselves, as PSD2 banks want it described (their request's headers as it came). */
export interface EndUserPresence {
  ipAddress: string;
  userAgent: string | null;
  referer?: string | null;
  accept?: string | null;
  acceptCharset?: string | null;
  acceptEncoding?: string | null;
  acceptLanguage?: string | null;
  /** `latitude,longitude`, when the app knows it. */
  geoLocation?: string | null;
}

export const CAPABILITIES = ['ACCOUNT_NUMBERS', 'BALANCE_REFRESH', 'TRANSACTIONS_REFRESH', 'WEBHOOKS', 'INVESTMENTS', 'INVESTMENT_TRANSACTIONS', 'LIABILITIES', 'ACCOUNT_OWNERS', 'STATEMENTS'] as const;
export type Capability = (typeof CAPABILITIES)[number];

/** The connection state an upstream failure (`ProviderError`) or webhook (`WebhookAction`) puts a connection in. */
export type ErrorState = 'ERROR_REPAIRABLE' | 'ERROR_SERVICE' | 'ERROR_PROVIDER' | 'ERROR_INSTITUTION';

export interface InboundWebhook {
  headers: Record<string, string | undefined>;
  /** The exact bytes received: signatures cover them. */
  body: Buffer;
}

/** What an inbound webhook asks of Tributary, for the login with this upstream id. */
export type WebhookAction =
  | { kind: 'SYNC'; remoteId: string }
  | { kind: 'ERROR'; remoteId: string; state: ErrorState; reason: string }
  | { kind: 'NEW_ACCOUNTS'; remoteId: string }
  | { kind: 'CONSENT_EXPIRING'; remoteId: string; expiresAt: string | null }
  | { kind: 'REVOKED'; remoteId: string }
  | { kind: 'STATEMENTS'; remoteId: string };
