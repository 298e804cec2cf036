import { CountryCode, Products, type InvestmentTransaction, type PlaidApi, type Security } from 'plaid';
import type { Capability, CursorProvider, InboundWebhook, WebhookAction } from '../provider.ts';
import type { LinkCompletion, LinkedLogin, LinkSession, LinkStart, ProductName } from '../link-flow.ts';
import { LinkRefused, ProviderBusy, ProviderError } from '../provider-errors.ts';
import type { InvestmentSnapshot } from '../provider-investments.ts';
import type { ProviderLiability } from '../provider-liabilities.ts';
import type { ProviderAccountOwners } from '../provider-owners.ts';
import type { ProviderAccount, ProviderBalance, SyncPage } from '../provider-records.ts';
import type { ProviderStatement, StatementDocument, StatementPeriod, StatementsRefreshed } from '../provider-statements.ts';
import { mapPlaidError, plaidErrorCode } from './errors.ts';
import type { PlaidEnv } from './plaid-client.ts';
import {
  toAccount,
  toBalance,
  toCreditLiability,
  loanKindOf,
  toHoldings,
  toInvestmentTransaction,
  toLineOfCreditLiability,
  toLoanLiability,
  toMortgageLiability,
  toSecurity,
  toStudentLiability,
  toStatements,
  toTransaction,
} from './transforms.ts';
import { toAccountOwners } from './owners.ts';
import { actionsOf, PlaidWebhookVerifier } from './webhooks.ts';

/** Transactions per /transactions/sync page (Plaid's maximum). */
const SYNC_PAGE = 500;
/** How far back Plaid keeps investment activity (24 months). */
const INVESTMENT_HISTORY_DAYS = 730;
/** Investment transactions per /investments/transactions/get page (Plaid's maximum). */
const INVESTMENT_PAGE = 500;
/** Pages one walk of investment activity may take (250,000 transactions), so a walk always ends. */
const MAX_INVESTMENT_PAGES = 500;
/** Walks of the activity that may end short of Plaid's total (activity moved mid-walk) before the sync is retried later. */
const MAX_INVESTMENT_WALKS = 3;
/** Plaid's answers for a login without the accounts (or an institution without the product): nothing to report. */
const NO_INVESTMENTS = new Set(['NO_INVESTMENT_ACCOUNTS', 'PRODUCTS_NOT_SUPPORTED']);
const NO_LIABILITIES = new Set(['NO_LIABILITY_ACCOUNTS', 'PRODUCTS_NOT_SUPPORTED']);
const NO_IDENTITY = new Set(['PRODUCTS_NOT_SUPPORTED']);
/**
 * The statements a new Item asks Plaid for: those posted in the last 90 days (the recent months a
 * lender asks for; Plaid bills each statement). A statements refresh reaches back up to two years.
 */
const STATEMENT_LINK_DAYS = 90;
/** The largest statement document read from Plaid: past it the download fails rather than filling memory (Tributary keeps at most 20 MB). */
const MAX_DOCUMENT_BYTES = 32 * 1024 * 1024;
/** Products a login may lack at its institution without failing the link. */
const OPTIONAL_PRODUCTS: ReadonlySet<Products> = new Set([Products.Investments, Products.Liabilities]);

export interface PlaidProviderOptions {
  client: PlaidApi;
  env: PlaidEnv;
  /** Plaid Link's script, loaded by the connect page. */
  linkScriptUrl: string;
  now?: () => Date;
}

/** What Tributary stores (encrypted) for a Plaid connection. */
interface PlaidLogin {
  accessToken: string;
  itemId: string;
}

/**
 * Plaid through its official SDK. Linking opens Plaid Link with a link token and exchanges the public
 * token it returns; update mode repairs an Item in place (the access token stays). Transactions come
 * from /transactions/sync, investments from /investments/holdings/get and /investments/transactions/get,
 * debt details from /liabilities/get, account owners from /identity/get; webhooks are verified with Plaid's ES256 keys. Every failure is mapped to a
 * connection state or a retry (errors.ts), and every amount to Tributary's signs (transforms.ts).
 */
export class PlaidProvider implements CursorProvider {
  readonly name = 'plaid';
  readonly syncStyle = 'CURSOR' as const;
  readonly capabilities: ReadonlySet<Capability> = new Set<Capability>([
    'ACCOUNT_NUMBERS',
    'BALANCE_REFRESH',
    'TRANSACTIONS_REFRESH',
    'WEBHOOKS',
    'INVESTMENTS',
    'INVESTMENT_TRANSACTIONS',
    'LIABILITIES',
    'ACCOUNT_OWNERS',
    'STATEMENTS',
  ]);
  readonly #client: PlaidApi;
  readonly #env: PlaidEnv;
  readonly #linkScriptUrl: string;
  readonly #now: () => Date;
  readonly #verifier: PlaidWebhookVerifier;

  constructor(options: PlaidProviderOptions) {
    this.#client = options.client;
    this.#env = options.env;
    this.#linkScriptUrl = options.linkScriptUrl;
    this.#now = options.now ?? (() => new Date());
    this.#verifier = new PlaidWebhookVerifier(options.client);
  }

  async startLink(request: LinkStart): Promise<LinkSession> {
    const existing = request.existingCredential ? readLogin(request.existingCredential) : undefined;
    const { data } = await call(() =>
      this.#client.linkTokenCreate({
        client_name: 'Tributary',
        language: 'en',
        country_codes: [CountryCode.Us],
        user: { client_user_id: request.profileId },
        ...webhookOf(request),
        // Update mode names the Item and no products: the Item keeps the ones it has.
        ...(existing ? { access_token: existing.accessToken } : linkProducts(request.products)),
        ...(!existing && request.products?.includes('STATEMENTS') ? { statements: this.#statementHistory() } : {}),
      }),
    );
    return { kind: 'PLAID_LINK', linkToken: data.link_token, scriptUrl: this.#linkScriptUrl, expiresAt: new Date(data.expiration).toISOString() };
  }

  async completeLink(request: LinkCompletion): Promise<LinkedLogin> {
    const products = request.products ?? ['TRANSACTIONS', 'BALANCES', 'ACCOUNT_NUMBERS'];
    let login: PlaidLogin;
    if (request.existingCredential) {
      // Update mode repaired the Item itself; its access token does not change.
      login = readLogin(request.existingCredential);
    } else {
      const publicToken = request.publicToken ?? (await this.#sandboxPublicToken(request, products));
      const { data } = await call(() => this.#client.itemPublicTokenExchange({ public_token: publicToken }), {
        INVALID_PUBLIC_TOKEN: new LinkRefused('INVALID', 'publicToken', 'the public token is invalid or expired: open Plaid Link again'),
      });
      login = { accessToken: data.access_token, itemId: data.item_id };
    }
    const { data } = await call(() => this.#client.itemGet({ access_token: login.accessToken }));
    const institutionId = data.item.institution_id ?? request.institutionId ?? 'unknown';
    return {
      credential: JSON.stringify(login),
      remoteId: login.itemId,
      institution: { id: institutionId, name: data.item.institution_name ?? institutionId },
      products,
      consentExpiresAt: data.item.consent_expiration_time ?? null,
    };
  }

  async accounts(credential: string): Promise<ProviderAccount[]> {
    const { data } = await call(() => this.#client.accountsGet({ access_token: readLogin(credential).accessToken }));
    const at = this.#now();
    return data.accounts.map((account) => toAccount(account, at));
  }

  async syncTransactions(credential: string, cursor: string | null): Promise<SyncPage> {
    const { data } = await call(() =>
      this.#client.transactionsSync({ access_token: readLogin(credential).accessToken, count: SYNC_PAGE, ...(cursor ? { cursor } : {}) }),
    );
    const at = this.#now();
    return {
      added: data.added.map((transaction) => toTransaction(transaction, at)),
      modified: data.modified.map((transaction) => toTransaction(transaction, at)),
      removed: data.removed.map((removed) => removed.transaction_id),
      nextCursor: data.next_cursor,
      hasMore: data.has_more,
      accounts: data.accounts.map((account) => toAccount(account, at)),
    };
  }

  async refreshTransactions(credential: string): Promise<void> {
    await call(() => this.#client.transactionsRefresh({ access_token: readLogin(credential).accessToken }));
  }

  async refreshBalance(credential: string, accountRemoteId: string): Promise<ProviderBalance> {
    const { data } = await call(() =>
      this.#client.accountsBalanceGet({ access_token: readLogin(credential).accessToken, options: { account_ids: [accountRemoteId] } }),
    );
    const account = data.accounts.find((candidate) => candidate.account_id === accountRemoteId);
    if (!account) throw new ProviderError('ERROR_PROVIDER', 'Plaid no longer reports this account');
    return toBalance(account, this.#now());
  }

  async accountNumbers(credential: string, accountRemoteId: string): Promise<{ number: string; routing: string } | null> {
    let response: Awaited<ReturnType<PlaidApi['authGet']>>;
    try {
      response = await this.#client.authGet({ access_token: readLogin(credential).accessToken, options: { account_ids: [accountRemoteId] } });
    } catch (error) {
      // Auth covers checking, savings and cash management accounts: for any other it reports none.
      if (plaidErrorCode(error) === 'NO_AUTH_ACCOUNTS') return null;
      throw mapPlaidError(error);
    }
    const ach = response.data.numbers.ach.find((numbers) => numbers.account_id === accountRemoteId);
    return ach ? { number: ach.account, routing: ach.routing } : null;
  }

  async disconnect(credential: string): Promise<void> {
    try {
      await this.#client.itemRemove({ access_token: readLogin(credential).accessToken });
    } catch (error) {
      // An Item Plaid no longer knows is as disconnected as it gets.
      const code = plaidErrorCode(error);
      if (code !== 'ITEM_NOT_FOUND' && code !== 'INVALID_ACCESS_TOKEN') throw mapPlaidError(error);
    }
  }

  /**
   * Holdings from /investments/holdings/get, then the activity over [start, today] from
   * /investments/transactions/get, page by page (offset paging). A walk that did not end with exactly
   * Plaid's total of distinct transactions (activity arrived or left mid-walk, shifting the offsets)
   * starts again, so none is skipped.
   */
  async investments(credential: string, from: string): Promise<InvestmentSnapshot> {
    const accessToken = readLogin(credential).accessToken;
    const end = this.#now().toISOString().slice(0, 10);
    // Plaid keeps 24 months of investment activity and refuses a start_date before them.
    const earliest = new Date(this.#now().getTime() - INVESTMENT_HISTORY_DAYS * 86_400_000).toISOString().slice(0, 10);
    const start = from < earliest ? earliest : from;
    const holdings = await orNone(() => this.#client.investmentsHoldingsGet({ access_token: accessToken }), NO_INVESTMENTS);
    if (!holdings) return { securities: [], holdings: [], transactions: [], start, end };
    const at = this.#now();
    const securities = new Map(holdings.data.securities.map((security) => [security.security_id, security]));
    const transactions = await this.#investmentTransactions(accessToken, start, end, securities);
    return {
      securities: [...securities.values()].map(toSecurity),
      holdings: toHoldings(holdings.data.holdings, at),
      transactions: transactions.map((transaction) => toInvestmentTransaction(transaction, at)),
      start,
      end,
    };
  }

  /** Cards, mortgages and student loans, and the closed-end loans and lines of credit Plaid's newer lists report. */
  async liabilities(credential: string): Promise<ProviderLiability[]> {
    const response = await orNone(() => this.#client.liabilitiesGet({ access_token: readLogin(credential).accessToken }), NO_LIABILITIES);
    if (!response) return [];
    const { credit, mortgage, student, loan, line_of_credit: linesOfCredit } = response.data.liabilities;
    const subtypes = new Map(response.data.accounts.map((account) => [account.account_id, account.subtype]));
    return [
      ...(credit ?? []).filter(hasAccount).map(toCreditLiability),
      ...(mortgage ?? []).map(toMortgageLiability),
      ...(student ?? []).filter(hasAccount).map(toStudentLiability),
      ...(loan ?? []).map((details) => toLoanLiability(details, loanKindOf(subtypes.get(details.account_id)))),
      ...(linesOfCredit ?? []).map(toLineOfCreditLiability),
    ];
  }

  /** Each account's owners as the institution knows them (Identity); none at an institution without the product. */
  async owners(credential: string): Promise<ProviderAccountOwners[]> {
    const response = await orNone(() => this.#client.identityGet({ access_token: readLogin(credential).accessToken }), NO_IDENTITY);
    return response ? toAccountOwners(response.data.accounts) : [];
  }

  /** /statements/list: the statements Plaid holds for the Item's depository accounts. */
  async statements(credential: string): Promise<ProviderStatement[]> {
    const { data } = await call(() => this.#client.statementsList({ access_token: readLogin(credential).accessToken }));
    return toStatements(data);
  }

  /** /statements/download: the PDF, with the SHA-256 Plaid sends in `Plaid-Content-Hash`. */
  async statementDocument(credential: string, statement: { remoteId: string }): Promise<StatementDocument> {
    const response = await call(() =>
      withJsonErrors(() =>
        this.#client.statementsDownload({ access_token: readLogin(credential).accessToken, statement_id: statement.remoteId }, { responseType: 'arraybuffer', maxContentLength: MAX_DOCUMENT_BYTES }),
      ),
    );
    const hash = response.headers['plaid-content-hash'] as unknown;
    return { bytes: Buffer.from(response.data as ArrayBuffer), sha256: typeof hash === 'string' && hash !== '' ? hash : null };
  }

  /** /statements/refresh: Plaid gathers the period's statements and says so with STATEMENTS_REFRESH_COMPLETE. */
  async refreshStatements(credential: string, period: StatementPeriod): Promise<StatementsRefreshed> {
    await call(() => this.#client.statementsRefresh({ access_token: readLogin(credential).accessToken, start_date: period.startOn, end_date: period.endOn }));
    return 'AWAIT_WEBHOOK';
  }

  /** The statements window asked for at link: the last STATEMENT_LINK_DAYS, to today. */
  #statementHistory(): { start_date: string; end_date: string } {
    const now = this.#now();
    const start = new Date(now.getTime() - STATEMENT_LINK_DAYS * 86_400_000);
    return { start_date: start.toISOString().slice(0, 10), end_date: now.toISOString().slice(0, 10) };
  }

  async receiveWebhook(request: InboundWebhook): Promise<WebhookAction[]> {
    return actionsOf(await this.#verifier.verify(request));
  }

  /** Every investment transaction over [start, end]; the securities they name are added to `securities`. */
  async #investmentTransactions(accessToken: string, start: string, end: string, securities: Map<string, Security>): Promise<InvestmentTransaction[]> {
    for (let walk = 0; walk < MAX_INVESTMENT_WALKS; walk++) {
      const found = new Map<string, InvestmentTransaction>();
      let offset = 0;
      let total: number | undefined;
      for (let page = 0; page < MAX_INVESTMENT_PAGES && (total === undefined || offset < total); page++) {
        const { data } = await call(() =>
          this.#client.investmentsTransactionsGet({ access_token: accessToken, start_date: start, end_date: end, options: { count: INVESTMENT_PAGE, offset } }),
        );
        total = data.total_investment_transactions;
        for (const security of data.securities) securities.set(security.security_id, security);
        for (const transaction of data.investment_transactions) found.set(transaction.investment_transaction_id, transaction);
        if (data.investment_transactions.length === 0) break;
        offset += data.investment_transactions.length;
      }
      // A trade that arrived or left mid-walk shifted the offsets: some transaction was read twice or never.
      if (found.size === total) return [...found.values()];
    }
    throw new ProviderBusy('Plaid investment transactions kept changing while being paged', 60);
  }

  /** Plaid's sandbox can make a public token without Link, for server-to-server sandbox connections. */
  async #sandboxPublicToken(request: LinkCompletion, products: ProductName[]): Promise<string> {
    if (!request.institutionId) throw new LinkRefused('INVALID', 'publicToken', 'send the publicToken Plaid Link returned');
    if (this.#env !== 'sandbox') throw new LinkRefused('INVALID', 'publicToken', 'only Plaid sandbox connections can be made without Plaid Link');
    const { data } = await call(
      () =>
        this.#client.sandboxPublicTokenCreate({
        institution_id: request.institutionId!,
        initial_products: plaidProducts(products),
        options: {
          ...webhookOf(request),
          ...(products.includes('STATEMENTS') ? { statements: this.#statementHistory() } : {}),
          ...(request.username ? { override_username: request.username, override_password: request.password ?? '' } : {}),
        },
      }),
      {
        INVALID_INSTITUTION: new LinkRefused('NOT_FOUND', 'institutionId', 'Institution'),
        INSTITUTION_NOT_FOUND: new LinkRefused('NOT_FOUND', 'institutionId', 'Institution'),
        INVALID_CREDENTIALS: new LinkRefused('CREDENTIALS', 'password', 'the institution refused the sign-in: the username or password is wrong'),
      },
    );
    return data.public_token;
  }
}

/** The `webhook` field of a Plaid request: none when this service cannot be reached from outside (Plaid refuses such a URL). */
function webhookOf(request: { webhookUrl: string | null }): { webhook?: string } {
  return request.webhookUrl === null ? {} : { webhook: request.webhookUrl };
}

/**
 * Tributary's products as Plaid's: balances come with every product, account numbers are Auth,
 * INVESTMENTS, LIABILITIES and STATEMENTS Plaid's products of the same names (read as text: the connection's
 * product list names them once the contract does), ACCOUNT_OWNERS Identity.
 */
function plaidProducts(products: ProductName[]): Products[] {
  const named = new Set<string>(products);
  const mapped = new Set<Products>([Products.Transactions]);
  if (named.has('ACCOUNT_NUMBERS')) mapped.add(Products.Auth);
  if (named.has('INVESTMENTS')) mapped.add(Products.Investments);
  if (named.has('LIABILITIES')) mapped.add(Products.Liabilities);
  if (named.has('ACCOUNT_OWNERS')) mapped.add(Products.Identity);
  if (named.has('STATEMENTS')) mapped.add(Products.Statements);
  if (!products.includes('TRANSACTIONS') && mapped.size > 1) mapped.delete(Products.Transactions);
  return [...mapped];
}

/**
 * A link token's products: investments and liabilities are optional (a bank without a brokerage or
 * a loan still links, and Link lists every institution), unless nothing else was asked for.
 */
function linkProducts(products: ProductName[]): { products: Products[]; optional_products?: Products[] } {
  const all = plaidProducts(products);
  const required = all.filter((product) => !OPTIONAL_PRODUCTS.has(product));
  if (required.length === 0 || required.length === all.length) return { products: all };
  return { products: required, optional_products: all.filter((product) => OPTIONAL_PRODUCTS.has(product)) };
}

function readLogin(credential: string): PlaidLogin {
  try {
    const login = JSON.parse(credential) as PlaidLogin;
    if (typeof login.accessToken === 'string' && typeof login.itemId === 'string') return login;
  } catch {
    // fall through: not a credential this provider stored
  }
  throw new ProviderError('ERROR_SERVICE', 'the stored Plaid credential is unreadable');
}

/** Runs a Plaid call; a failure with one of the `none` codes (the login has no such accounts) is null, any other is mapped. */
async function orNone<T>(request: () => Promise<T>, none: ReadonlySet<string>): Promise<T | null> {
  try {
    return await request();
  } catch (error) {
    if (none.has(plaidErrorCode(error) ?? '')) return null;
    throw mapPlaidError(error);
  }
}

const hasAccount = <T extends { account_id: string | null }>(liability: T): liability is T & { account_id: string } => liability.account_id !== null;

/** Runs a Plaid call; its failure is mapped (errors.ts), or, for the error codes in `refusals`, refused as the user's input. */
async function call<T>(request: () => Promise<T>, refusals: Record<string, LinkRefused> = {}): Promise<T> {
  try {
    return await request();
  } catch (error) {
    const code = plaidErrorCode(error);
    throw (code && refusals[code]) || mapPlaidError(error);
  }
}

/** A binary request's error answer arrives as bytes: read as the JSON Plaid sent, so its error maps like any other. */
async function withJsonErrors<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    const response = (error as { response?: { data?: unknown } }).response;
    if (response && response.data instanceof ArrayBuffer) {
      try {
        response.data = JSON.parse(Buffer.from(response.data).toString('utf8')) as unknown;
      } catch {
        // not JSON: mapped as an answer without a Plaid error
      }
    }
    throw error;
  }
}
