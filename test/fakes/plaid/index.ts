import { TransactionsUpdateStatus, WebhookType, type AccountBase, type Holding, type InvestmentTransaction, type LiabilitiesObject, type Owner, type Security, type Transaction } from 'plaid';
import { INSTITUTIONS, type AccountKey } from './catalog.ts';
import { errors } from './errors.ts';
import { allSecurities, exampleBuy } from './investments.ts';
import type { FakeItem } from './item.ts';
import type { LiabilityPatch } from './liabilities.ts';
import { isoDay } from '../../../src/providers/sandbox/household.ts';
import type { Endpoint } from './schemas.ts';
import { FakePlaidServer, type FailureKind, type RequestRecord } from './server.ts';
import { FakePlaidState, GOOD_CREDENTIALS, type LinkSession } from './state.ts';
import { WebhookSender, type WebhookDelivery, type WebhookVariant } from './webhooks.ts';

export type { AccountKey } from './catalog.ts';
export type { FailureKind, RequestRecord } from './server.ts';
export type { LinkSession } from './state.ts';
export type { WebhookDelivery, WebhookVariant } from './webhooks.ts';
export { INSTITUTIONS, GOOD_CREDENTIALS, exampleBuy };

export interface FakePlaidOptions {
  /** Every generated value (ids, amounts, merchants) derives from it. Default `tributary`. */
  seed?: string;
  /** The institution's date when the fake starts (history ends on it). Default: today, UTC. */
  today?: Date | string;
  /**
   * Transactions in a new Item's history over two years (Plaid's maximum `days_requested`, used when
   * the link asks for no fewer days; an Item linked with `days_requested` gets its share). Default 2,200.
   */
  transactionCount?: number;
  clientId?: string;
  secret?: string;
  /** Certificate and key to serve with (e.g. the tests' TLS material); default a fresh self-signed one for 127.0.0.1. */
  tls?: { cert: string; key: string };
  /** CA to trust for webhook receivers' certificates. */
  webhookCa?: string | Buffer;
}

/** Options of controls that change what the institution reports. */
export interface NotifyOption {
  /** Send SYNC_UPDATES_AVAILABLE to the Item's webhook (and wait for its delivery). Default true. */
  notify?: boolean;
}

export interface FakeItemSummary {
  itemId: string;
  accessToken: string;
  institutionId: string;
  webhook: string | null;
  /** Error code of the Item's error state (e.g. ITEM_LOGIN_REQUIRED), or null. */
  error: string | null;
  removed: boolean;
}

/** A running fake of Plaid's API: its address, credentials, and the controls a test drives it with. */
export type FakePlaid = Awaited<ReturnType<typeof startFakePlaid>>;

/**
 * Starts a stateful fake of Plaid's Sandbox API over HTTPS on 127.0.0.1, in this process. Point the
 * `plaid` SDK at `url` (basePath) with an https agent trusting `ca`, and `clientId`/`secret` as keys.
 */
export async function startFakePlaid(options: FakePlaidOptions = {}) {
  const clientId = options.clientId ?? 'fake-plaid-client-id';
  const secret = options.secret ?? 'fake-plaid-secret';
  const webhooks = await WebhookSender.create(options.webhookCa);
  const state = new FakePlaidState({ seed: options.seed ?? 'tributary', today: new Date(options.today ?? Date.now()), transactionCount: options.transactionCount ?? 2_200 }, webhooks);
  const server = new FakePlaidServer(state, { clientId, secret, tls: options.tls });
  const { url, ca } = await server.start();

  const announce = async (item: FakeItem, notify: boolean | undefined, type: WebhookType = WebhookType.Transactions, code = 'SYNC_UPDATES_AVAILABLE') => {
    if (notify !== false) await state.notify(item, type, code);
  };
  const brokerageOf = (itemId: string) => {
    const { brokerage } = state.item(itemId);
    if (!brokerage) throw new Error(`item ${itemId} has no brokerage (create it with the investments product)`);
    return brokerage;
  };

  return {
    url,
    ca,
    clientId,
    secret,
    /** Every request answered, in order, secrets and tokens redacted. */
    requests: server.requests as readonly RequestRecord[],
    /** Every webhook sent, in order, with the exact body and headers. */
    webhookDeliveries: webhooks.deliveries as readonly WebhookDelivery[],

    /** The institution's current date, `YYYY-MM-DD`. */
    today: () => isoDay(state.today),

    /**
     * Moves the institution's clock. New days bring payroll, bills, purchases; pending purchases
     * post. With `update` (default) Plaid's scheduled update runs for every Item and announces its
     * changes with SYNC_UPDATES_AVAILABLE; without, they wait for `/transactions/refresh`.
     */
    async advanceClock(days: number, advanceOptions: { update?: boolean } = {}) {
      state.today += days;
      if (advanceOptions.update === false) return;
      await Promise.all([...state.items.values()].map((item) => state.update(item).webhook));
    },

    /** `n` card purchases authorised today on the Item (pending or posted as the generator draws, unless `pending` says). */
    async addTransactions(itemId: string, n: number, addOptions: { pending?: boolean; account?: AccountKey } & NotifyOption = {}): Promise<Transaction[]> {
      const item = state.item(itemId);
      const added = item.addPurchases(state.today, n, addOptions);
      await announce(item, addOptions.notify);
      return added;
    },

    /**
     * The institution opens an `other` account (Plaid type `other`, which /auth/get leaves out) on the
     * Item. With `listed: false`, /accounts/get and /accounts/balance/get leave it out too, and only
     * `/transactions/sync`'s `accounts` reports it, beside its transactions. Returns its account id.
     */
    openAccount(itemId: string, key: AccountKey, openOptions: { listed?: boolean } = {}): string {
      return state.item(itemId).openAccount(key, { listed: openOptions.listed ?? true }).accountId;
    },

    /**
     * From now on the account's balances read `balances` (e.g. an investment-like `current` of
     * 23631.9805, which Plaid reports with four fraction digits) instead of following its transactions.
     */
    reportBalances(itemId: string, key: AccountKey, balances: Partial<AccountBase['balances']>): void {
      state.item(itemId).account(key).reported = { ...balances };
    },

    /** Posts a pending transaction (the oldest, or `transactionId`) under a new id; `amount` settles it differently (a tip). */
    async postPending(itemId: string, postOptions: { transactionId?: string; amount?: number } & NotifyOption = {}): Promise<Transaction> {
      const item = state.item(itemId);
      const posted = item.postPending(state.today, postOptions.transactionId, postOptions.amount);
      await announce(item, postOptions.notify);
      return posted;
    },

    async modifyTransaction(itemId: string, transactionId: string, patch: Partial<Transaction>, modifyOptions: NotifyOption = {}): Promise<Transaction> {
      const item = state.item(itemId);
      const modified = item.modify(transactionId, patch);
      await announce(item, modifyOptions.notify);
      return modified;
    },

    async removeTransaction(itemId: string, transactionId: string, removeOptions: NotifyOption = {}): Promise<void> {
      const item = state.item(itemId);
      item.remove(transactionId);
      await announce(item, removeOptions.notify);
    },

    /**
     * The next `/transactions/sync` walk of the Item that has more than one page is disturbed: right
     * after its first page a new purchase arrives, so the next page answers 400
     * TRANSACTIONS_SYNC_MUTATION_DURING_PAGINATION and the walk must restart from its first cursor.
     */
    injectMutationDuringPagination(itemId: string): void {
      state.item(itemId).mutationPending = true;
    },

    /** As `/sandbox/item/reset_login`: data calls answer ITEM_LOGIN_REQUIRED; an ITEM ERROR webhook is sent. */
    async resetLogin(itemId: string): Promise<void> {
      await state.resetLogin(state.item(itemId));
    },

    /** The end-user's consent to the Item ends at `at`, as at a European institution: `/item/get` reports it. */
    setConsentExpiration(itemId: string, at: Date | null): void {
      state.item(itemId).consentExpiresAt = at;
    },

    /** The user fixed the login outside the client's app: the error clears and LOGIN_REPAIRED is sent. */
    async repairLogin(itemId: string): Promise<void> {
      await state.repair(state.item(itemId), false);
    },

    /**
     * Plays the user finishing Link with a link token. Update mode (token created with
     * `access_token`) repairs that Item's login; otherwise a new Item is created with the token's
     * products and webhook. Resolves to the public token Link's onSuccess would hand over.
     */
    async completeLink(linkToken: string, linkOptions: { institutionId?: string; username?: string; password?: string } = {}): Promise<{ publicToken: string; itemId: string }> {
      const session = state.linkSessions.get(linkToken);
      if (!session || session.expiration.getTime() < Date.now()) throw errors.invalidLinkToken();
      const credentials = { username: linkOptions.username ?? GOOD_CREDENTIALS.username, password: linkOptions.password ?? GOOD_CREDENTIALS.password };
      let item: FakeItem;
      if (session.itemId !== null) {
        item = state.item(session.itemId);
        if (credentials.username !== GOOD_CREDENTIALS.username || credentials.password !== GOOD_CREDENTIALS.password) throw errors.invalidCredentials();
        if (session.webhook !== null) item.webhook = session.webhook;
        await state.repair(item, true);
      } else {
        item = state.createItem(state.institution(linkOptions.institutionId ?? INSTITUTIONS[0]!.id), session, credentials);
      }
      return { publicToken: state.publicTokenFor(item), itemId: item.itemId };
    },

    /** From now on the Item's statement downloads name a SHA-256 (`Plaid-Content-Hash`) their bytes do not have. */
    tamperStatements(itemId: string): void {
      state.item(itemId).tamperedStatements = true;
    },

    /** The Item's statements as Plaid holds them: id, account, month, posted day. */
    statements(itemId: string) {
      return [...state.item(itemId).statements.values()].map((statement) => ({ ...statement }));
    },

    /** Sends a webhook for the Item (which must have a webhook URL); `variant` forges, ages or tampers it. */
    async fireWebhook(itemId: string, type: string, code: string, extra: Record<string, unknown> = {}, variant: WebhookVariant = 'valid'): Promise<WebhookDelivery> {
      const item = state.item(itemId);
      const delivery = await state.notify(item, type, code, extra, variant);
      if (!delivery) throw new Error(`item ${itemId} has no webhook URL`);
      return delivery;
    },

    /**
     * Delivers webhooks addressed to `publicOrigin` (a name Plaid would resolve, e.g.
     * `https://tributary.example`) to `localOrigin`, as DNS and a reverse proxy do in front of a real service.
     */
    routeWebhooks(publicOrigin: string, localOrigin: string): void {
      webhooks.route(publicOrigin, localOrigin);
    },

    /** Signs with a new key from now on; the old one is still served, with `expired_at` set. */
    rotateWebhookKey: () => webhooks.rotateKey(),
    /** Resolves once every webhook sent so far was delivered or failed. */
    webhooksSettled: () => webhooks.settled(),

    /**
     * The next call (to `endpoint`, or any) answers this failure, `times` times: 429 RATE_LIMIT_EXCEEDED,
     * 500 INTERNAL_SERVER_ERROR, 400 INSTITUTION_DOWN, or 400 INVALID_REQUEST (INVALID_FIELD: a request Plaid refuses as malformed).
     */
    failNext(kind: FailureKind, failOptions: { endpoint?: Endpoint; times?: number } = {}): void {
      server.failNext(kind, failOptions);
    },

    /** E.g. NOT_READY: `/transactions/sync` answers empty pages with an empty `next_cursor`, as right after linking. */
    setUpdateStatus(itemId: string, status: TransactionsUpdateStatus): void {
      state.item(itemId).updateStatus = status;
    },

    /** What the institution reports now, newest first: the view a fully synced client should hold. */
    currentTransactions(itemId: string): Transaction[] {
      return [...state.item(itemId).view.values()].map((transaction) => structuredClone(transaction)).sort((a, b) => b.date.localeCompare(a.date) || a.transaction_id.localeCompare(b.transaction_id));
    },

    /** The Item's accounts with their current balances. */
    accounts(itemId: string): AccountBase[] {
      const item = state.item(itemId);
      return item.accounts.map((account) => item.describeAccount(account, null));
    },

    /**
     * The Item's brokerage as Plaid reports it (created with the investments product): holdings,
     * every security the fake knows, and the whole history of investment transactions, newest first.
     */
    investments(itemId: string): { holdings: Holding[]; securities: Security[]; transactions: InvestmentTransaction[] } {
      const brokerage = brokerageOf(itemId);
      return structuredClone({ holdings: brokerage.holdings, securities: allSecurities(isoDay(state.today)), transactions: brokerage.transactions });
    },

    /** Changes the position in `securityId` (its quantity, price, value…) and sends HOLDINGS: DEFAULT_UPDATE. */
    async setHolding(itemId: string, securityId: string, patch: Partial<Holding>, setOptions: NotifyOption = {}): Promise<Holding> {
      const holding = brokerageOf(itemId).holdings.find((candidate) => candidate.security_id === securityId);
      if (!holding) throw new Error(`item ${itemId} holds no ${securityId}`);
      Object.assign(holding, structuredClone(patch), { security_id: securityId, account_id: holding.account_id });
      await announce(state.item(itemId), setOptions.notify, WebhookType.Holdings, 'DEFAULT_UPDATE');
      return structuredClone(holding);
    },

    /**
     * A new position (a lot: Plaid may report several of one security in one account) in the
     * brokerage, Plaid's fields as given; sends HOLDINGS: DEFAULT_UPDATE.
     */
    async addHolding(itemId: string, holding: Omit<Holding, 'account_id'>, addOptions: NotifyOption = {}): Promise<Holding> {
      const brokerage = brokerageOf(itemId);
      const added = { ...structuredClone(holding), account_id: brokerage.accountId };
      brokerage.holdings.push(added);
      await announce(state.item(itemId), addOptions.notify, WebhookType.Holdings, 'DEFAULT_UPDATE');
      return structuredClone(added);
    },

    /** A trade with Plaid's fields as given (e.g. the examples of Plaid's description), dated today; sends INVESTMENTS_TRANSACTIONS: DEFAULT_UPDATE. */
    async addInvestmentTransaction(
      itemId: string,
      transaction: Omit<InvestmentTransaction, 'investment_transaction_id' | 'account_id' | 'date'>,
      addOptions: NotifyOption = {},
    ): Promise<InvestmentTransaction> {
      const added = brokerageOf(itemId).addOwn(state.today, structuredClone(transaction));
      await announce(state.item(itemId), addOptions.notify, WebhookType.InvestmentsTransactions, 'DEFAULT_UPDATE');
      return structuredClone(added);
    },

    /** `n` trades in the brokerage dated today; sends INVESTMENTS_TRANSACTIONS: DEFAULT_UPDATE. */
    async addInvestmentTransactions(itemId: string, n: number, addOptions: NotifyOption = {}): Promise<InvestmentTransaction[]> {
      const added = brokerageOf(itemId).add(state.today, n);
      await announce(state.item(itemId), addOptions.notify, WebhookType.InvestmentsTransactions, 'DEFAULT_UPDATE');
      return structuredClone(added);
    },

    /**
     * The next /investments/transactions/get page after a walk's first one is read after a new trade
     * (dated today) arrived: the total grows and every later offset shifts by one.
     */
    injectInvestmentActivityDuringPaging(itemId: string): void {
      brokerageOf(itemId);
      state.item(itemId).investmentActivityPending = true;
    },

    /** Changes the liability details of a card or loan account (a new statement, a rate change); sends LIABILITIES: DEFAULT_UPDATE. */
    async updateLiability(itemId: string, key: AccountKey, patch: LiabilityPatch, updateOptions: NotifyOption = {}): Promise<void> {
      const item = state.item(itemId);
      const { accountId } = item.account(key);
      item.liabilityPatches.set(accountId, { ...item.liabilityPatches.get(accountId), ...structuredClone(patch) });
      await announce(item, updateOptions.notify, WebhookType.Liabilities, 'DEFAULT_UPDATE');
    },

    /** Replaces the owners /identity/get reports for an account of the Item (a joint account's second holder, a name change); sends IDENTITY: DEFAULT_UPDATE naming it. */
    async setOwners(itemId: string, key: AccountKey, owners: Owner[], setOptions: NotifyOption = {}): Promise<void> {
      const item = state.item(itemId);
      const { accountId } = item.account(key);
      item.owners.set(accountId, structuredClone(owners));
      if (setOptions.notify !== false) await state.notify(item, 'IDENTITY', 'DEFAULT_UPDATE', { account_ids_with_updated_identity: { [accountId]: ['NAMES', 'EMAILS', 'PHONES', 'ADDRESSES'] } });
    },

    /** /liabilities/get's details of the Item, in Plaid's signs. */
    liabilities(itemId: string): LiabilitiesObject {
      return state.item(itemId).liabilities(state.today);
    },

    /** Link tokens created so far, oldest first (`itemId` set for update mode). */
    linkSessions(): LinkSession[] {
      return [...state.linkSessions.values()].map((session) => structuredClone(session));
    },

    items(): FakeItemSummary[] {
      return [...state.items.values()].map((item) => ({ itemId: item.itemId, accessToken: item.accessToken, institutionId: item.institution.id, webhook: item.webhook, error: item.error?.error_code ?? null, removed: item.removed }));
    },

    /** Waits for webhooks in flight, then closes the server. */
    async stop(): Promise<void> {
      await webhooks.settled();
      await server.stop();
    },
  };
}
