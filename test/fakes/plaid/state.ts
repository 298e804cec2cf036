import { randomUUID } from 'node:crypto';
import { Products, WebhookEnvironmentValues, WebhookType } from 'plaid';
import { INSTITUTIONS, type FakeInstitution } from './catalog.ts';
import { errors, FakePlaidError } from './errors.ts';
import { HISTORY_DAYS } from './activity.ts';
import { FakeItem } from './item.ts';
import { dayOf } from '../../../src/providers/sandbox/household.ts';
import type { WebhookDelivery, WebhookSender, WebhookVariant } from './webhooks.ts';

/** Sandbox credentials that log in successfully, as in Plaid's Sandbox. */
export const GOOD_CREDENTIALS = { username: 'user_good', password: 'pass_good' };

/** A `/link/token/create` call, kept until a test plays the user finishing Link (`completeLink`). */
export interface LinkSession {
  linkToken: string;
  products: Products[];
  webhook: string | null;
  daysRequested: number | undefined;
  /** The statements window asked for (with Statements). */
  statements?: { start_date: string; end_date: string } | null;
  /** Update mode: the Item whose login the session repairs. */
  itemId: string | null;
  expiration: Date;
}

export interface StateOptions {
  seed: string;
  today: Date;
  transactionCount: number;
}

/** Everything the fake holds: the clock, Items and their tokens, Link sessions, and the webhook sender. */
export class FakePlaidState {
  today: number;
  readonly items = new Map<string, FakeItem>();
  readonly linkSessions = new Map<string, LinkSession>();
  readonly #publicTokens = new Map<string, string>();
  readonly #byAccessToken = new Map<string, FakeItem>();
  readonly #options: StateOptions;
  readonly webhooks: WebhookSender;

  constructor(options: StateOptions, webhooks: WebhookSender) {
    this.#options = options;
    this.today = dayOf(options.today.getTime());
    this.webhooks = webhooks;
  }

  institution(id: string): FakeInstitution {
    const institution = INSTITUTIONS.find((candidate) => candidate.id === id);
    if (!institution) throw errors.invalidInstitution();
    return institution;
  }

  /** Logs in at an institution, as Link or `/sandbox/public_token/create` does, creating an Item. */
createItem(institution: FakeInstitution, link: { products: Products[]; webhook: string | null; daysRequested: number | undefined; statements?: { start_date: string; end_date: string } | null }, credentials: { username: string; password: string }): FakeItem {
    checkCredentials(credentials);
    const item = new FakeItem({
      seed: this.#options.seed,
      index: this.items.size,
      institution,
      products: link.products,
      webhook: link.webhook,
      today: this.today,
      transactionCount: this.#options.transactionCount,
      daysRequested: link.daysRequested ?? HISTORY_DAYS,
      statements: link.statements,
    });
    this.items.set(item.itemId, item);
    this.#byAccessToken.set(item.accessToken, item);
    return item;
  }

  publicTokenFor(item: FakeItem): string {
    const token = `public-sandbox-${randomUUID()}`;
    this.#publicTokens.set(token, item.itemId);
    return token;
  }

  /** A public token is good for one exchange. */
  exchange(publicToken: string): FakeItem {
    const itemId = this.#publicTokens.get(publicToken);
    if (itemId === undefined) throw errors.invalidPublicToken();
    this.#publicTokens.delete(publicToken);
    return this.items.get(itemId)!;
  }

  /**
   * The Item of an access token. With `data`, an Item in an error state answers that error instead,
   * as Plaid's data endpoints do.
   */
  itemFor(accessToken: string, options: { data: boolean }): FakeItem {
    const item = this.#byAccessToken.get(accessToken);
    if (!item || item.removed) throw errors.invalidAccessToken();
    if (options.data && item.error) throw new FakePlaidError(400, item.error);
    return item;
  }

  /** The Item for a test control, which must exist. */
  item(itemId: string): FakeItem {
    const item = this.items.get(itemId);
    if (!item) throw new Error(`the fake has no item ${itemId}`);
    return item;
  }

  /** Plaid's periodic update of one Item; announces new changes with SYNC_UPDATES_AVAILABLE. */
  update(item: FakeItem): { changes: number; webhook: Promise<WebhookDelivery | null> } {
    if (item.removed || item.error) return { changes: 0, webhook: Promise.resolve(null) };
    const changes = item.update(this.today);
    return { changes, webhook: changes > 0 ? this.notify(item, WebhookType.Transactions, 'SYNC_UPDATES_AVAILABLE') : Promise.resolve(null) };
  }

  resetLogin(item: FakeItem): Promise<WebhookDelivery | null> {
    item.error = errors.itemLoginRequired().body;
    return this.notify(item, WebhookType.Item, 'ERROR', { error: { ...item.error, status: 400 } });
  }

  /**
   * The login works again. Through update mode in the client's own app no webhook follows; repaired
   * any other way (the user fixed it elsewhere) Plaid sends LOGIN_REPAIRED.
   */
  async repair(item: FakeItem, throughUpdateMode: boolean): Promise<void> {
    item.error = null;
    const repaired = throughUpdateMode ? null : this.notify(item, WebhookType.Item, 'LOGIN_REPAIRED');
    await Promise.all([repaired, this.update(item).webhook]);
  }

  /** Sends a webhook for `item` to its webhook URL (none set: nothing is sent). */
  notify(item: FakeItem, type: string, code: string, extra: Record<string, unknown> = {}, variant: WebhookVariant = 'valid'): Promise<WebhookDelivery | null> {
    if (item.webhook === null) return Promise.resolve(null);
    item.lastWebhook = { sentAt: new Date(), code };
    const payload = { webhook_type: type, webhook_code: code, item_id: item.itemId, ...defaultFields(item, type, code), ...extra, environment: WebhookEnvironmentValues.Sandbox };
    return this.webhooks.send(item.webhook, payload, variant);
  }
}

function checkCredentials(credentials: { username: string; password: string }) {
  if (credentials.username !== GOOD_CREDENTIALS.username || credentials.password !== GOOD_CREDENTIALS.password) throw errors.invalidCredentials();
}

/** The fields Plaid's webhook of a type and code carries besides type, code, Item and environment. */
function defaultFields(item: FakeItem, type: string, code: string): Record<string, unknown> {
  switch (`${type}:${code}`) {
    case 'TRANSACTIONS:SYNC_UPDATES_AVAILABLE':
      return { initial_update_complete: true, historical_update_complete: true };
    case 'TRANSACTIONS:DEFAULT_UPDATE':
      return { new_transactions: 0, error: null };
    case 'HOLDINGS:DEFAULT_UPDATE':
      return { new_holdings: 0, updated_holdings: 0, error: null };
    case 'INVESTMENTS_TRANSACTIONS:DEFAULT_UPDATE':
      return { new_investments_transactions: 0, canceled_investments_transactions: 0, error: null };
    case 'LIABILITIES:DEFAULT_UPDATE':
      return { account_ids_with_new_liabilities: [], account_ids_with_updated_liabilities: {}, error: null };
    case 'IDENTITY:DEFAULT_UPDATE':
      return { account_ids_with_updated_identity: {}, error: null };
    case 'ITEM:ERROR':
      return { error: item.error && { ...item.error, status: 400 } };
    case 'ITEM:WEBHOOK_UPDATE_ACKNOWLEDGED':
      return { new_webhook_url: item.webhook, error: null };
    case 'ITEM:PENDING_DISCONNECT':
      return { reason: 'INSTITUTION_MIGRATION', disconnect_time: new Date(Date.now() + 7 * 86_400_000).toISOString() };
    case 'ITEM:USER_ACCOUNT_REVOKED':
      return { account_id: item.accounts[0]!.accountId };
    case 'ITEM:NEW_ACCOUNTS_AVAILABLE':
    case 'ITEM:USER_PERMISSION_REVOKED':
      return { error: null };
    default:
      return {};
  }
}
