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
}

/** One value left out of a snapshot. */
export interface UnreadableItem {
  accountRemoteId: string;
  /** `TRANSACTION`: the entry is left out; `BALANCE`: a balance figure (current, available, limit) is reported as unknown; `ORIGINAL_AMOUNT`: the entry is kept without it. */
  what: 'TRANSACTION' | 'BALANCE' | 'ORIGINAL_AMOUNT';
  /** Why, in words that quote nothing of the data. */
  reason: string;
}

export const CAPABILITIES = ['ACCOUNT_NUMBERS', 'BALANCE_REFRESH', 'TRANSACTIONS_REFRESH', 'WEBHOOKS', 'INVESTMENTS', 'INVESTMENT_TRANSACTIONS', 'LIABILITIES'] as const;
export type Capability = (typeof CAPABILITIES)[number];

export type ProductName = 'TRANSACTIONS' | 'BALANCES' | 'ACCOUNT_NUMBERS' | 'INVESTMENTS' | 'LIABILITIES';
export type AccountKind = 'DEPOSITORY' | 'CREDIT' | 'LOAN' | 'INVESTMENT';
export type ErrorState = 'ERROR_REPAIRABLE' | 'ERROR_SERVICE' | 'ERROR_PROVIDER' | 'ERROR_INSTITUTION';

export interface Institution {
  id: string;
  name: string;
  products: ProductName[];
  description: string;
  /** Countries the institution serves (ISO 3166 alpha-2), when the provider says. */
  countries?: string[];
  /** The institution's logo, when the provider gives one. */
  logoUrl?: string | null;
}

export interface InstitutionQuery {
  /** ISO 3166 alpha-2; absent: every country the provider serves. */
  country?: string;
  /** A case-insensitive fragment of the institution's name. */
  name?: string;
}

export interface LinkStart {
  /** The profile's public id (Plaid's `client_user_id`). */
  profileId: string;
  products: ProductName[];
  /** Where the upstream should send webhooks about this login; null when this service cannot be reached from outside. */
  webhookUrl: string | null;
  /** Update mode: the credential of the login being repaired. */
  existingCredential?: string;
  /** REDIRECT providers: the institution the end-user chose (from `searchInstitutions`). */
  institutionId?: string;
  /** REDIRECT providers: Tributary's callback, where the institution sends the end-user back with `state`. */
  redirectUrl?: string;
  /** REDIRECT providers: the one-time value the callback must receive back unchanged. */
  state?: string;
}

/** What the connect page opens: a credential form over institutions, or the provider's own script. */
export type LinkSession =
  | { kind: 'CREDENTIALS'; institutions: Institution[] }
  | { kind: 'PLAID_LINK'; linkToken: string; scriptUrl: string; expiresAt: string }
  | { kind: 'SETUP_TOKEN'; createUrl: string }
  /** The end-user leaves for the institution's own sign-in at `url`, which sends them back to `redirectUrl`. */
  | { kind: 'REDIRECT'; url: string; expiresAt: string };

/** What the provider's UI handed back; each provider reads the fields it defines. */
export interface LinkCompletion {
  institutionId?: string;
  username?: string;
  password?: string;
  publicToken?: string;
  /** SimpleFIN: the Setup Token the end-user pasted. */
  setupToken?: string;
  /** REDIRECT providers: the authorization code the institution sent back to the callback. */
  authorizationCode?: string;
  products: ProductName[] | undefined;
  /** Where the upstream should send webhooks about this login; null when this service cannot be reached from outside. */
  webhookUrl: string | null;
  /** Update mode: the credential of the login being repaired. */
  existingCredential?: string;
}

export interface LinkedLogin {
  credential: string;
  /** The upstream's id of the login (Plaid's item_id), to route its webhooks. */
  remoteId: string | null;
  institution: { id: string; name: string };
  products: ProductName[];
  /** When the end-user's consent ends (PSD2: 90 to 180 days after it was given); null or absent: no known end. */
  consentExpiresAt?: string | null;
}

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
  | { kind: 'REVOKED'; remoteId: string };

/**
 * An upstream failure. `state` is the connection state it puts the connection in. `retryAfterSeconds`
 * set: the failure is temporary (rate limited, upstream hiccup) and the work is retried after that
 * delay (the upstream's own when it gave one) without counting as the connection's new state.
 * `ERROR_SERVICE` means the upstream refused Tributary's own request: retrying cannot help, and it
 * is logged with `upstreamRequestId` (the upstream's id of the refused request, for its support).
 */
export class ProviderError extends Error {
  readonly status: ErrorState;
  readonly retryAfterSeconds: number | undefined;
  readonly upstreamRequestId: string | undefined;
  /** ERROR_REPAIRABLE because the end-user's consent reached its end (not revoked): the connection's consent has ended. */
  readonly consentExpired: boolean;

  constructor(status: ErrorState, message: string, options: { retryAfterSeconds?: number; upstreamRequestId?: string; consentExpired?: boolean } = {}) {
    super(message);
    this.status = status;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.upstreamRequestId = options.upstreamRequestId;
    this.consentExpired = options.consentExpired ?? false;
  }
}

/**
 * The upstream asks to come back later (rate limited, data not ready yet): the work is retried after
 * `retryAfterSeconds` and the connection's state does not change.
 */
export class ProviderBusy extends Error {
  readonly retryAfterSeconds: number;

  constructor(message: string, retryAfterSeconds: number) {
    super(message);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/**
 * The upstream refuses the operator's settings for it (a key, an allowed redirect URL): nothing the
 * end-user or the app does helps. `setting` tells the operator what to fix (logged, never answered).
 */
export class ProviderMisconfigured extends ProviderError {
  readonly setting: string;

  constructor(message: string, setting: string) {
    super('ERROR_SERVICE', message);
    this.setting = setting;
  }
}

/** The cursor walk must start again from its first cursor (the upstream changed mid-pagination). */
export class SyncRestart extends Error {}

/** What the user handed the link flow cannot be used: an unknown institution, invalid input, or a sign-in the institution rejected. */
export class LinkRefused extends Error {
  readonly reason: 'NOT_FOUND' | 'INVALID' | 'CREDENTIALS';
  readonly field: string;

  constructor(reason: 'NOT_FOUND' | 'INVALID' | 'CREDENTIALS', field: string, message: string) {
    super(message);
    this.reason = reason;
    this.field = field;
  }
}

/** An inbound webhook whose signature, age or body does not verify: nothing happens. */
export class WebhookUnverified extends Error {}

/** An operation the provider does not offer (a capability it lacks). */
export class NotOffered extends Error {
  readonly capability: Capability;

  constructor(capability: Capability, provider: string) {
    super(`${provider} does not offer ${capability}`);
    this.capability = capability;
  }
}

/*
 * Products beyond cash. Quantities, prices and amounts are exact decimal strings with every digit
 * the upstream gives (all are stored); nothing goes through a float. Money follows the same signs as transactions and balances: money into an account positive,
 * what the holder owes negative.
 */

/** What investment accounts hold and did, as one upstream read reports it. */
export interface InvestmentSnapshot {
  /** Every security a holding or an investment transaction names. */
  securities: ProviderSecurity[];
  /** What every investment account of the login holds now, one per (account, security), lots summed (an account absent here holds nothing). */
  holdings: ProviderHolding[];
  /** Investment activity over [start, end]; null when the upstream reports none (SimpleFIN). */
  transactions: ProviderInvestmentTransaction[] | null;
  /** First day the activity covers: stored activity before it is never removed because of it. */
  start: string;
  /** The upstream's today. */
  end: string;
}

export const SECURITY_TYPES = ['EQUITY', 'ETF', 'MUTUAL_FUND', 'FIXED_INCOME', 'CASH', 'CRYPTOCURRENCY', 'DERIVATIVE', 'OTHER'] as const;
export type SecurityType = (typeof SECURITY_TYPES)[number];

/** An instrument, as the upstream describes it; holds nothing about any person. */
export interface ProviderSecurity {
  /** The upstream's id of the instrument (Plaid's security_id; SimpleFIN: the symbol). */
  remoteId: string;
  name: string | null;
  tickerSymbol: string | null;
  isin: string | null;
  cusip: string | null;
  type: SecurityType;
  currencyCode: string;
  /** The latest close price the upstream knows, and its day. */
  closePrice: string | null;
  closePriceDate: string | null;
}

export interface ProviderHolding {
  accountRemoteId: string;
  securityRemoteId: string;
  quantity: string;
  price: string;
  /** The day of `price`; null when the upstream does not say. */
  priceDate: string | null;
  /** quantity × price as the upstream reports it (its rounding kept). */
  value: string;
  /** What was paid for the whole position; null when unknown. */
  costBasis: string | null;
  currencyCode: string;
  /** The provider's own data, stored as the holding's `remoteData`. */
  raw: Record<string, unknown>;
}

export const INVESTMENT_TRANSACTION_TYPES = ['BUY', 'SELL', 'DIVIDEND', 'INTEREST', 'FEE', 'TRANSFER', 'CASH', 'CANCEL', 'OTHER'] as const;
export type InvestmentTransactionType = (typeof INVESTMENT_TRANSACTION_TYPES)[number];

export interface ProviderInvestmentTransaction {
  remoteId: string;
  accountRemoteId: string;
  /** Null for cash movements (a deposit, a fee not tied to a security). */
  securityRemoteId: string | null;
  date: string;
  type: InvestmentTransactionType;
  /** The upstream's finer label (Plaid's subtype: `dividend`, `stock split`, `management fee`, …). */
  subtype: string | null;
  /** Units into the account positive, out negative (a buy positive, a sell negative); 0 for cash movements. */
  quantity: string;
  price: string;
  /** What was charged, positive (already counted in `amount`). */
  fees: string | null;
  /** Money into the account's cash positive (a sale, a dividend), out negative (a buy, a fee). */
  amount: string;
  currencyCode: string;
  description: string;
  raw: Record<string, unknown>;
}

export const LIABILITY_KINDS = ['CREDIT', 'MORTGAGE', 'STUDENT', 'AUTO', 'PERSONAL', 'OTHER'] as const;
export type LiabilityKind = (typeof LIABILITY_KINDS)[number];

/** The debt details of one credit or loan account. Balances owed are negative; payments made are positive. */
export interface ProviderLiability {
  accountRemoteId: string;
  kind: LiabilityKind;
  /** Cards: each APR with the balance subject to it (negative: owed). */
  aprs: { type: string; percentage: string; balanceSubjectToApr: string | null }[];
  /** The next payment due, owed: negative. */
  minimumPayment: string | null;
  nextPaymentDueDate: string | null;
  lastStatementBalance: string | null;
  lastStatementDate: string | null;
  /** Paid into the account: positive. */
  lastPaymentAmount: string | null;
  lastPaymentDate: string | null;
  isOverdue: boolean | null;
  /** Loans. */
  interestRateType: 'FIXED' | 'VARIABLE' | null;
  interestRatePercentage: string | null;
  originationDate: string | null;
  /** Borrowed at origination, owed: negative. */
  originationPrincipal: string | null;
  maturityDate: string | null;
  /** The next loan payment due, owed: negative. */
  nextPaymentAmount: string | null;
  nextPaymentDate: string | null;
  /** Held in escrow for the holder: positive. */
  escrowBalance: string | null;
  /** Paid this year: positive. */
  ytdInterestPaid: string | null;
  ytdPrincipalPaid: string | null;
  raw: Record<string, unknown>;
}

/** A liability with no details yet: adapters spread it and set what their upstream reports. */
export const NO_LIABILITY_DETAILS: Omit<ProviderLiability, 'accountRemoteId' | 'kind' | 'raw'> = {
  aprs: [],
  minimumPayment: null,
  nextPaymentDueDate: null,
  lastStatementBalance: null,
  lastStatementDate: null,
  lastPaymentAmount: null,
  lastPaymentDate: null,
  isOverdue: null,
  interestRateType: null,
  interestRatePercentage: null,
  originationDate: null,
  originationPrincipal: null,
  maturityDate: null,
  nextPaymentAmount: null,
  nextPaymentDate: null,
  escrowBalance: null,
  ytdInterestPaid: null,
  ytdPrincipalPaid: null,
};
