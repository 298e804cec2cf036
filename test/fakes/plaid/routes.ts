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
  type Item,
  type ItemGetResponse,
  type ItemPublicTokenExchangeResponse,
  type ItemRemoveResponse,
  type ItemWebhookUpdateResponse,
  type LinkTokenCreateResponse,
  type SandboxItemFireWebhookResponse,
  type SandboxItemResetLoginResponse,
  type SandboxPublicTokenCreateResponse,
  type TransactionsRefreshResponse,
  type TransactionsSyncResponse,
  type WebhookVerificationKeyGetResponse,
} from 'plaid';
import { errors } from './errors.ts';
import type { FakeItem, ItemAccount } from './item.ts';
import type { Endpoint, RequestOf } from './schemas.ts';
import { GOOD_CREDENTIALS, type FakePlaidState } from './state.ts';
import { syncPage } from './sync.ts';

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
}

/** Handles a validated, authenticated request; `onItem` tells the request log which Item it concerned. */
type Handler<E extends Endpoint> = (request: RequestOf[E], state: FakePlaidState, onItem: (item: FakeItem) => void) => Answer<ResponseOf[E]>;

const LINK_TOKEN_LIFETIME_MS = 4 * 3600_000;
/** What /auth/get covers: checking, savings and cash management accounts; it leaves every other account out. */
const AUTH_SUBTYPES: ReadonlySet<AccountSubtype | null | undefined> = new Set([AccountSubtype.Checking, AccountSubtype.Savings, AccountSubtype.CashManagement]);
const OFFERED_PRODUCTS = [Products.Auth, Products.Balance, Products.Identity, Products.Liabilities, Products.Transactions];

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
    consent_expiration_time: null,
    update_type: ItemUpdateTypeEnum.Background,
  };
}

/** `accounts` restricted to `accountIds` when given (an id not among them is refused, as Plaid does). */
function selectAccounts(accounts: ItemAccount[], accountIds: string[] | undefined): ItemAccount[] {
  if (accountIds === undefined) return accounts;
  return accountIds.map((id) => accounts.find((account) => account.accountId === id) ?? (() => { throw errors.invalidAccountId(); })());
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
    const link = { products: request.initial_products, webhook: options.webhook ?? null, daysRequested: options.transactions?.days_requested };
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

  '/webhook_verification_key/get': (request, state) => {
    const key = state.webhooks.publicKey(request.key_id);
    if (!key) throw errors.invalidWebhookKeyId();
    return { key };
  },

  '/sandbox/item/fire_webhook': (request, state, onItem) => {
    const item = state.itemFor(request.access_token, { data: false });
    onItem(item);
    const fireable = FIREABLE[request.webhook_code];
    if (!fireable || (fireable.product && !item.products.includes(fireable.product))) throw errors.sandboxProductNotEnabled();
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
