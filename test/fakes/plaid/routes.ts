import { randomUUID } from 'node:crypto';
import {
  AccountSubtype,
  AccountType,
  ItemUpdateTypeEnum,
  ItemWithConsentFieldsUpdateTypeEnum,
  Products,
  SandboxItemFireWebhookRequestWebhookCodeEnum as FireCode,
  WebhookType,
  type AccountsGetResponse,
  type AuthGetResponse,
  type InvestmentAccount,
  type InvestmentsHoldingsGetResponse,
  type InvestmentsTransactionsGetResponse,
  type IdentityGetResponse,
  type LiabilitiesGetResponse,
  type StatementsListResponse,
  type StatementsRefreshResponse,
  type Item,
  type ItemGetResponse,
  type ItemPublicTokenExchangeResponse,
  type ItemRemoveResponse,
  type ItemWebhookUpdateResponse,
  type LinkTokenCreateResponse,
  type SandboxItemFireWebhookResponse,
  type SandboxItemResetLoginResponse,
  type Security,
  type SandboxPublicTokenCreateResponse,
  type TransactionsRefreshResponse,
  type TransactionsSyncResponse,
  type WebhookVerificationKeyGetResponse,
} from 'plaid';
import { isoDay } from '../../../src/providers/sandbox/household.ts';
import { errors } from './errors.ts';
import { allSecurities } from './investments.ts';
import type { FakeItem, ItemAccount } from './item.ts';
import type { Endpoint, RequestOf } from './schemas.ts';
import { GOOD_CREDENTIALS, type FakePlaidState } from './state.ts';
import { syncPage } from './sync.ts';
import { listedStatements, statementDocument, type PdfAnswer } from './statements.ts';

type Answer<T> = Omit<T, 'request_id'>;

interface ResponseOf {
  '/link/token/create': LinkTokenCreateResponse;
  '/sandbox/public_token/create': SandboxPublicTokenCreateResponse;
  '/item/public_token/exchange': ItemPublicTokenExchangeResponse;
  '/item/get': ItemGetResponse;
  '/item/remove': ItemRemoveResponse;
  '/item/webhook/update': ItemWebhookUpdateResponse;
  '/accounts/get': AccountsGetResponse;
  '/accounts/balance/get': AccountsGetResponse;
  '/transactions/sync': TransactionsSyncResponse;
  '/transactions/refresh': TransactionsRefreshResponse;
  '/auth/get': AuthGetResponse;
  '/webhook_verification_key/get': WebhookVerificationKeyGetResponse;
  '/sandbox/item/fire_webhook': SandboxItemFireWebhookResponse;
  '/sandbox/item/reset_login': SandboxItemResetLoginResponse;
  '/investments/holdings/get': InvestmentsHoldingsGetResponse;
  '/investments/transactions/get': InvestmentsTransactionsGetResponse;
  '/liabilities/get': LiabilitiesGetResponse;
  '/identity/get': IdentityGetResponse;
  '/statements/list': StatementsListResponse;
  '/statements/download': Promise<PdfAnswer>;
  '/statements/refresh': StatementsRefreshResponse;
}

/** Handles a validated, authenticated request; `onItem` tells the request log which Item it concerned. */
type Handler<E extends Endpoint> = (request: RequestOf[E], state: FakePlaidState, onItem: (item: FakeItem) => void) => ResponseOf[E] extends Promise<infer B> ? Promise<B> : Answer<ResponseOf[E]>;

const LINK_TOKEN_LIFETIME_MS = 4 * 3600_000;
/** What /auth/get covers: checking, savings and cash management accounts; it leaves every other account out. */
const AUTH_SUBTYPES: ReadonlySet<AccountSubtype | null | undefined> = new Set([AccountSubtype.Checking, AccountSubtype.Savings, AccountSubtype.CashManagement]);
const OFFERED_PRODUCTS = [Products.Auth, Products.Balance, Products.Identity, Products.Investments, Products.Liabilities, Products.Statements, Products.Transactions];
/** /investments/transactions/get's page size when the request names none. */
const DEFAULT_INVESTMENT_PAGE = 100;

/** Plaid's default `webhook_type` for each code `/sandbox/item/fire_webhook` can fire, and the product it needs. */
const FIREABLE: Partial<Record<FireCode, { type: WebhookType; product?: Products }>> = {
  [FireCode.DefaultUpdate]: { type: WebhookType.Transactions, product: Products.Transactions },
  [FireCode.SyncUpdatesAvailable]: { type: WebhookType.Transactions, product: Products.Transactions },
  [FireCode.RecurringTransactionsUpdate]: { type: WebhookType.Transactions, product: Products.Transactions },
  [FireCode.NewAccountsAvailable]: { type: WebhookType.Item },
  [FireCode.LoginRepaired]: { type: WebhookType.Item },
  [FireCode.PendingDisconnect]: { type: WebhookType.Item },
  [FireCode.UserPermissionRevoked]: { type: WebhookType.Item },
  [FireCode.UserAccountRevoked]: { type: WebhookType.Item },
};
/** DEFAULT_UPDATE fired with another `webhook_type` than TRANSACTIONS needs that type's product. */
const DEFAULT_UPDATE_PRODUCTS: Partial<Record<WebhookType, Products>> = {
  [WebhookType.Holdings]: Products.Investments,
  [WebhookType.InvestmentsTransactions]: Products.Investments,
  [WebhookType.Liabilities]: Products.Liabilities,
};

function describeItem(item: FakeItem): Item {
  return {
    item_id: item.itemId,
    institution_id: item.institution.id,
    institution_name: item.institution.name,
    webhook: item.webhook,
    auth_method: null,
    error: item.error,
    available_products: OFFERED_PRODUCTS.filter((product) => !item.products.includes(product)),
    billed_products: [...item.products],
    products: [...item.products],
    consented_products: [...item.products],
    consent_expiration_time: item.consentExpiresAt?.toISOString() ?? null,
    update_type: ItemUpdateTypeEnum.Background,
  };
}

/** `accounts` restricted to `accountIds` when given (an id not among them is refused, as Plaid does). */
function selectAccounts(accounts: ItemAccount[], accountIds: string[] | undefined): ItemAccount[] {
  if (accountIds === undefined) return accounts;
  return accountIds.map((id) => accounts.find((account) => account.accountId === id) ?? (() => { throw errors.invalidAccountId(); })());
}

/** An investments request's Item, its brokerage (none: Plaid's NO_INVESTMENT_ACCOUNTS) and the investment accounts it selects. */
function investmentsOf(state: FakePlaidState, request: { access_token: string; options?: { account_ids?: string[] } }, onItem: (item: FakeItem) => void) {
  const item = state.itemFor(request.access_token, { data: true });
  onItem(item);
  if (!item.brokerage) throw errors.noInvestmentAccounts();
  useProduct(item, Products.Investments);
  const investmentAccounts = item.accounts.filter((account) => account.template.type === AccountType.Investment);
  return { item, brokerage: item.brokerage, accounts: selectAccounts(investmentAccounts, request.options?.account_ids) };
}

/** An investment account as /investments/* describe it: its balances name the margin loan (none at the fake). */
function investmentAccount(item: FakeItem, account: ItemAccount): InvestmentAccount {
  // The fake never sets verification_status (its enum differs between the two account types).
  const { verification_status: _unset, ...described } = item.describeAccount(account, null);
  return { ...described, balances: { ...described.balances, margin_loan_amount: null } };
}

/** The securities `entries` name, each once. */
function securitiesNamed(state: FakePlaidState, entries: { security_id: string | null }[]): Security[] {
  const named = new Set(entries.map((entry) => entry.security_id));
  return allSecurities(isoDay(state.today)).filter((security) => named.has(security.security_id));
}

/** A statements request's Item, which must have been linked with Statements (else Plaid's PRODUCTS_NOT_SUPPORTED). */
function statementsItem(state: FakePlaidState, accessToken: string, onItem: (item: FakeItem) => void): FakeItem {
  const item = state.itemFor(accessToken, { data: true });
  onItem(item);
  if (!item.products.includes(Products.Statements)) throw errors.productsNotSupported();
  return item;
}

/** The accounts /accounts/get and /accounts/balance/get report. */
const listed = (item: FakeItem) => item.accounts.filter((account) => account.listed);

function useProduct(item: FakeItem, product: Products) {
  if (!item.products.includes(product)) item.products.push(product);
}

/** One handler per endpoint; the server validates the body against `requestShapes` first. */
export const handlers: { [E in Endpoint]: Handler<E> } = {
  '/link/token/create': (request, state, onItem) => {
    const item = request.access_token ? state.itemFor(request.access_token, { data: false }) : null;
    if (item) onItem(item);
    if (!request.user && !request.user_id && !request.user_token) throw errors.missingFields(['user']);
    const products = [...(request.products ?? []), ...(request.required_if_supported_products ?? []), ...(request.optional_products ?? [])];
    if (!item && products.length === 0) throw errors.invalidField('products must contain at least one product unless access_token is set (update mode)');
    const session = {
      linkToken: `link-sandbox-${randomUUID()}`,
      products,
      webhook: request.webhook ?? null,
      daysRequested: request.transactions?.days_requested,
      statements: request.statements ?? null,
      itemId: item?.itemId ?? null,
      expiration: new Date(Date.now() + LINK_TOKEN_LIFETIME_MS),
    };
    state.linkSessions.set(session.linkToken, session);
    return { link_token: session.linkToken, expiration: session.expiration.toISOString() };
  },

  '/sandbox/public_token/create': (request, state, onItem) => {
    const institution = state.institution(request.institution_id);
    const options = request.options ?? {};
    const credentials = { username: options.override_username ?? GOOD_CREDENTIALS.username, password: options.override_password ?? GOOD_CREDENTIALS.password };
    const link = { products: request.initial_products, webhook: options.webhook ?? null, daysRequested: options.transactions?.days_requested, statements: options.statements ?? null };
    const item = state.createItem(institution, link, credentials);
    onItem(item);
    return { public_token: state.publicTokenFor(item) };
  },

  '/item/public_token/exchange': (request, state, onItem) => {
    const item = state.exchange(request.public_token);
    onItem(item);
    return { access_token: item.accessToken, item_id: item.itemId };
  },

  '/item/get': (request, state, onItem) => {
    const item = state.itemFor(request.access_token, { data: false });
    onItem(item);
    return {
      item: { ...describeItem(item), update_type: ItemWithConsentFieldsUpdateTypeEnum.Background, created_at: item.createdAt.toISOString() },
      status: {
        investments: null,
        transactions: { last_successful_update: item.lastUpdate.toISOString(), last_failed_update: null },
        last_webhook: item.lastWebhook && { sent_at: item.lastWebhook.sentAt.toISOString(), code_sent: item.lastWebhook.code },
      },
    };
  },

  '/item/remove': (request, state, onItem) => {
    const item = state.itemFor(request.access_token, { data: false });
    onItem(item);
    item.removed = true;
    return {};
  },

  '/item/webhook/update': (request, state, onItem) => {
    const item = state.itemFor(request.access_token, { data: false });
    onItem(item);
    item.webhook = request.webhook ?? null;
    void state.notify(item, WebhookType.Item, 'WEBHOOK_UPDATE_ACKNOWLEDGED');
    return { item: describeItem(item) };
  },

  '/accounts/get': (request, state, onItem) => {
    const item = state.itemFor(request.access_token, { data: true });
    onItem(item);
    return { accounts: selectAccounts(listed(item), request.options?.account_ids).map((account) => item.describeAccount(account, null)), item: describeItem(item) };
  },

  '/accounts/balance/get': (request, state, onItem) => {
    const item = state.itemFor(request.access_token, { data: true });
    onItem(item);
    const now = new Date().toISOString();
    return { accounts: selectAccounts(listed(item), request.options?.account_ids).map((account) => item.describeAccount(account, now)), item: describeItem(item) };
  },

  '/transactions/sync': (request, state, onItem) => {
    const item = state.itemFor(request.access_token, { data: true });
    onItem(item);
    useProduct(item, Products.Transactions);
    return syncPage(item, request, () => {
      if (!item.mutationPending) return;
      // Something happens at the bank between two pages of this walk: a new purchase arrives.
      item.mutationPending = false;
      item.addPurchases(state.today, 1, { pending: true });
    });
  },

  '/transactions/refresh': (request, state, onItem) => {
    const item = state.itemFor(request.access_token, { data: true });
    onItem(item);
    void state.update(item).webhook;
    return {};
  },

  '/auth/get': (request, state, onItem) => {
    const item = state.itemFor(request.access_token, { data: true });
    onItem(item);
    useProduct(item, Products.Auth);
    const accounts = selectAccounts(item.accounts, request.options?.account_ids).filter((account) => account.template.type === AccountType.Depository && AUTH_SUBTYPES.has(account.template.subtype));
    if (accounts.length === 0) throw errors.noAuthAccounts();
    const { institution } = item;
    return {
      accounts: accounts.map((account) => item.describeAccount(account, null)),
      numbers: {
        ach: accounts.map((account) => ({ account_id: account.accountId, account: account.accountNumber, routing: institution.routing, wire_routing: institution.wireRouting, is_tokenized_account_number: institution.tokenizedAccountNumbers })),
        eft: [],
        international: [],
        bacs: [],
      },
      item: describeItem(item),
    };
  },

  '/investments/holdings/get': (request, state, onItem) => {
    const { item, brokerage, accounts } = investmentsOf(state, request, onItem);
    const holdings = brokerage.holdings.filter((holding) => accounts.some((account) => account.accountId === holding.account_id));
    return { accounts: accounts.map((account) => investmentAccount(item, account)), holdings: structuredClone(holdings), securities: securitiesNamed(state, holdings), item: describeItem(item) };
  },

  '/investments/transactions/get': (request, state, onItem) => {
    const { item, brokerage, accounts } = investmentsOf(state, request, onItem);
    if (request.start_date > request.end_date) throw errors.invalidField('start_date must be before or on end_date');
    if (item.investmentActivityPending && (request.options?.offset ?? 0) > 0) {
      // A trade settles between two pages of this walk: every later offset shifts by one.
      item.investmentActivityPending = false;
      brokerage.add(state.today, 1);
    }
    const matching = brokerage.transactions.filter(
      (transaction) => transaction.date >= request.start_date && transaction.date <= request.end_date && accounts.some((account) => account.accountId === transaction.account_id),
    );
    const offset = request.options?.offset ?? 0;
    const page = matching.slice(offset, offset + (request.options?.count ?? DEFAULT_INVESTMENT_PAGE));
    return {
      accounts: accounts.map((account) => investmentAccount(item, account)),
      investment_transactions: structuredClone(page),
      securities: securitiesNamed(state, page),
      total_investment_transactions: matching.length,
      item: describeItem(item),
    };
  },

  '/liabilities/get': (request, state, onItem) => {
    const item = state.itemFor(request.access_token, { data: true });
    onItem(item);
    useProduct(item, Products.Liabilities);
    const owing = item.accounts.filter((account) => account.template.type === AccountType.Credit || account.template.type === AccountType.Loan);
    const accounts = selectAccounts(owing, request.options?.account_ids);
    const selected = <T extends { account_id: string | null }>(list: T[] | null | undefined) => list?.filter((entry) => accounts.some((account) => account.accountId === entry.account_id)) ?? null;
    const { credit, mortgage, student } = item.liabilities(state.today);
    return {
      accounts: accounts.map((account) => item.describeAccount(account, null)),
      liabilities: { credit: selected(credit), mortgage: selected(mortgage), student: selected(student) },
      item: describeItem(item),
    };
  },

  '/identity/get': (request, state, onItem) => {
    const item = state.itemFor(request.access_token, { data: true });
    onItem(item);
    useProduct(item, Products.Identity);
    const accounts = selectAccounts(item.accounts, request.options?.account_ids);
    return {
      accounts: accounts.map((account) => {
        // Plaid's AccountIdentity has its own verification-status enum; the fake's accounts carry no status.
        const { verification_status: _status, ...described } = item.describeAccount(account, null);
        return { ...described, owners: structuredClone(item.ownersOf(account.accountId)) };
      }),
      item: describeItem(item),
    };
  },

  '/statements/list': (request, state, onItem) => {
    const item = statementsItem(state, request.access_token, onItem);
    return { accounts: listedStatements(item), institution_id: item.institution.id, institution_name: item.institution.name, item_id: item.itemId };
  },

  '/statements/download': (request, state, onItem) => statementDocument(statementsItem(state, request.access_token, onItem), request.statement_id),

  '/statements/refresh': (request, state, onItem) => {
    const item = statementsItem(state, request.access_token, onItem);
    item.issueStatements(request, state.today);
    // Plaid extracts in the background and says when it is done.
    void state.notify(item, 'STATEMENTS', 'STATEMENTS_REFRESH_COMPLETE', { result: 'SUCCESS' });
    return {};
  },

  '/webhook_verification_key/get': (request, state) => {
    const key = state.webhooks.publicKey(request.key_id);
    if (!key) throw errors.invalidWebhookKeyId();
    return { key };
  },

  '/sandbox/item/fire_webhook': (request, state, onItem) => {
    const item = state.itemFor(request.access_token, { data: false });
    onItem(item);
    const fireable = FIREABLE[request.webhook_code];
    const product = (request.webhook_code === FireCode.DefaultUpdate && request.webhook_type && DEFAULT_UPDATE_PRODUCTS[request.webhook_type]) || fireable?.product;
    if (!fireable || (product && !item.products.includes(product))) throw errors.sandboxProductNotEnabled();
    if (item.webhook === null) throw errors.sandboxWebhookInvalid();
    void state.notify(item, request.webhook_type ?? fireable.type, request.webhook_code);
    return { webhook_fired: true };
  },

  '/sandbox/item/reset_login': (request, state, onItem) => {
    const item = state.itemFor(request.access_token, { data: false });
    onItem(item);
    void state.resetLogin(item);
    return { reset_login: true };
  },
};
