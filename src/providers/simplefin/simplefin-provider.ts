import type { Capability, WebhookAction, WindowProvider } from '../provider.ts';
import type { LinkCompletion, LinkedLogin, LinkSession } from '../link-flow.ts';
import { LinkRefused, NotOffered, ProviderBusy, ProviderError, WebhookUnverified } from '../provider-errors.ts';
import type { InvestmentSnapshot } from '../provider-investments.ts';
import type { ProviderAccount, ProviderBalance, WindowSnapshot } from '../provider-records.ts';
import { Unreachable, type HttpAnswer, type HttpsClient } from './simplefin-client.ts';
import { HOLDING_DECIMAL_FIELDS, toInvestments, type HoldingsOfAccount } from './holdings.ts';
import type { RecentHoldings } from './recent-holdings.ts';
import { sanitize, toAccount, toTransaction, type SimplefinAccount } from './transforms.ts';
import { DAY_MS } from '../../lib/dates.ts';

/** The SimpleFIN Bridge's own allowance per Access URL; Tributary stays within it. */
const BRIDGE_REQUESTS_PER_DAY = 24;
/** The Bridge silently caps a window at 90 days: Tributary never asks for more than this, so what it reconciles is what came. */
const MAX_WINDOW_DAYS = 89;
const RETRY_SECONDS = 900;

export interface SimplefinOptions {
  http: HttpsClient;
  /** Hosts a Setup Token's claim URL and the Access URL may point at (default the SimpleFIN Bridge). */
  allowedHosts: string[];
  /** Where the end-user makes a Setup Token. */
  createUrl: string;
  /** The holdings of each login's last Account Set, shared by the providers of every environment in this process. */
  recentHoldings: RecentHoldings;
}

/**
 * SimpleFIN (https://www.simplefin.org/protocol.html): the end-user pastes a Setup Token, Tributary
 * claims it once for an Access URL (kept encrypted) and reads `/accounts` windows, which the sync
 * engine reconciles with what is stored, with the Bridge's `holdings` of each account. No investment
 * activity, ACH numbers, real-time balances or webhooks; at most 24 requests a day per login.
 */
export class SimplefinProvider implements WindowProvider {
  readonly name = 'simplefin';
  readonly syncStyle = 'WINDOW' as const;
  readonly capabilities: ReadonlySet<Capability> = new Set<Capability>(['TRANSACTIONS_REFRESH', 'INVESTMENTS']);
  readonly requestBudgetPerDay = BRIDGE_REQUESTS_PER_DAY;
  readonly #options: SimplefinOptions;

  constructor(options: SimplefinOptions) {
    this.#options = options;
  }

  async startLink(): Promise<LinkSession> {
    return { kind: 'SETUP_TOKEN', createUrl: this.#options.createUrl };
  }

  /** Claims the Setup Token (a repair claims a new one for the same connection). */
  async completeLink(request: LinkCompletion): Promise<LinkedLogin> {
    const claimUrl = this.#claimUrl(request.setupToken);
    const answer = await this.#send('POST', claimUrl);
    if (answer.status === 403) {
      throw new LinkRefused('INVALID', 'setupToken', 'this Setup Token was already claimed or is not valid: make a new one at your SimpleFIN Bridge (and if you did not use it, disable it there)');
    }
    if (answer.status !== 200) throw failure(answer);
    const accessUrl = this.#allowed(answer.body.trim(), 'the Access URL SimpleFIN returned');
    if (!accessUrl.username) throw new ProviderError('ERROR_PROVIDER', 'SimpleFIN returned an Access URL without credentials');
    return {
      credential: JSON.stringify({ accessUrl: accessUrl.toString() }),
      remoteId: null,
      institution: { id: accessUrl.hostname, name: 'SimpleFIN Bridge' },
      products: ['TRANSACTIONS', 'BALANCES'],
    };
  }

  async accounts(credential: string): Promise<ProviderAccount[]> {
    return (await this.#accountSet(credential, { 'balances-only': '1' })).accounts.map(toAccount);
  }

  async readWindow(credential: string, requestedStart: string): Promise<WindowSnapshot> {
    const at = new Date();
    const earliest = new Date(at.getTime() - MAX_WINDOW_DAYS * DAY_MS).toISOString().slice(0, 10);
    const start = requestedStart < earliest ? earliest : requestedStart;
    const set = await this.#accountSet(credential, { 'start-date': String(Date.parse(`${start}T00:00:00Z`) / 1000), pending: '1' });
    this.#options.recentHoldings.remember(credential, set.accounts);
    const end = bridgeDay(set.accounts, Date.parse(`${start}T00:00:00Z`));
    // What the Bridge covered, by its own clock: never more than the cap before its today.
    const covered = new Date(Date.parse(`${end}T00:00:00Z`) - MAX_WINDOW_DAYS * DAY_MS).toISOString().slice(0, 10);
    return {
      start: start < covered ? covered : start,
      end,
      accounts: set.accounts.map(toAccount),
      transactions: set.accounts.flatMap((account) => (account.transactions ?? []).map((transaction) => toTransaction(account, transaction, at))),
      attention: attentionOf(set),
    };
  }

  /**
   * The holdings of the login's accounts. Right after `readWindow` (a sync) they come from the Account
   * Set it read, costing no request; otherwise from a new Account Set of no transactions. SimpleFIN
   * reports no investment activity: `transactions` is null.
   */
  async investments(credential: string, start: string): Promise<InvestmentSnapshot> {
    const accounts = this.#options.recentHoldings.recall(credential) ?? (await this.#holdingsNow(credential));
    return { ...toInvestments(accounts), transactions: null, start, end: bridgeDay(accounts, Date.parse(`${start}T00:00:00Z`)) };
  }

  /** The sync that follows reads the newest window: there is nothing to ask for first. */
  async refreshTransactions(): Promise<void> {}

  async refreshBalance(): Promise<ProviderBalance> {
    throw new NotOffered('BALANCE_REFRESH', this.name);
  }

  async accountNumbers(): Promise<{ number: string; routing: string }> {
    throw new NotOffered('ACCOUNT_NUMBERS', this.name);
  }

  /** Access is revoked by the end-user at their Bridge; Tributary forgets the Access URL with the connection. */
  async disconnect(): Promise<void> {}

  async receiveWebhook(): Promise<WebhookAction[]> {
    throw new WebhookUnverified('SimpleFIN sends no webhooks');
  }

  async #holdingsNow(credential: string): Promise<HoldingsOfAccount[]> {
    // A window that starts now holds no transaction; the Bridge sends holdings with every Account Set.
    const set = await this.#accountSet(credential, { 'start-date': String(Math.floor(Date.now() / 1000)) });
    this.#options.recentHoldings.remember(credential, set.accounts);
    return set.accounts;
  }

  async #accountSet(credential: string, query: Record<string, string>): Promise<AccountSet> {
    const url = new URL(`${readLogin(credential).replace(/\/+$/, '')}/accounts`);
    // Version 2: structured errors (`errlist`, by code), payee and memo; without it the Bridge answers version 1.
    url.searchParams.set('version', '2');
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
    const answer = await this.#send('GET', this.#allowed(url.toString(), 'the Access URL'));
    if (answer.status !== 200) throw failure(answer);
    try {
      const set = JSON.parse(answer.body, holdingDecimals) as { accounts?: SimplefinAccount[] };
      if (!Array.isArray(set.accounts)) throw new Error('no accounts');
      return set as AccountSet;
    } catch {
      throw new ProviderError('ERROR_PROVIDER', 'SimpleFIN answered something other than an Account Set', { retryAfterSeconds: RETRY_SECONDS });
    }
  }

  #claimUrl(setupToken: string | undefined): URL {
    if (!setupToken) throw new LinkRefused('INVALID', 'setupToken', 'paste the Setup Token from your SimpleFIN Bridge');
    const decoded = Buffer.from(setupToken.trim(), 'base64').toString('utf8');
    try {
      return this.#allowed(decoded, 'the Setup Token');
    } catch (error) {
      throw new LinkRefused('INVALID', 'setupToken', error instanceof Error ? error.message : 'not a Setup Token');
    }
  }

  /** Only https URLs on the allowed hosts: a pasted token must not make Tributary call anything else. */
  #allowed(text: string, what: string): URL {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new Error(`${what} is not a SimpleFIN URL`);
    }
    if (url.protocol !== 'https:' || !this.#options.allowedHosts.includes(url.hostname)) {
      throw new Error(`${what} points at ${url.protocol === 'https:' ? url.hostname : 'a non-https URL'}, not at an allowed SimpleFIN server`);
    }
    return url;
  }

  async #send(method: 'GET' | 'POST', url: URL): Promise<HttpAnswer> {
    try {
      return await this.#options.http(method, url);
    } catch (error) {
      if (error instanceof Unreachable) throw new ProviderError('ERROR_PROVIDER', error.message, { retryAfterSeconds: RETRY_SECONDS });
      throw error;
    }
  }
}

interface AccountSet {
  accounts: SimplefinAccount[];
  /** Version 1: messages for the user. */
  errors?: string[];
  /** Version 2: `gen.*` (general: advice, caps), `con.*` (a bank login needs attention), `act.*` (an account). */
  errlist?: Array<{ code?: string; msg?: string }>;
}

/**
 * What the end-user must act on: a bank login or account that needs attention (version 2 `con.` and
 * `act.` errors; version 1 strings). General notices (`gen.`, e.g. window advice) are not the user's.
 */
function attentionOf(set: AccountSet): string | null {
  const messages = set.errlist
    ? set.errlist.filter((entry) => /^(con|act)\./.test(entry.code ?? '')).map((entry) => entry.msg ?? entry.code ?? '')
    : (set.errors ?? []);
  const clean = messages.filter(Boolean).map(sanitize);
  return clean.length > 0 ? clean.join(' · ') : null;
}

/** A holding's amount sent as a JSON number is read from its text as sent, not from the float it parses to. */
function holdingDecimals(key: string, value: unknown, context?: { source?: string }): unknown {
  return typeof value === 'number' && HOLDING_DECIMAL_FIELDS.has(key) && context?.source !== undefined ? context.source : value;
}

/** The Bridge's today: the day of its latest balance date, not before `notBefore` (ms). */
function bridgeDay(accounts: Array<{ 'balance-date'?: number }>, notBefore: number): string {
  const latest = Math.max(0, ...accounts.map((account) => account['balance-date'] ?? 0));
  return new Date(Math.max(latest * 1000, notBefore)).toISOString().slice(0, 10);
}

/** A failed SimpleFIN answer as what Tributary does about it. */
function failure(answer: HttpAnswer): Error {
  switch (answer.status) {
    case 402:
      return new ProviderError('ERROR_REPAIRABLE', 'the SimpleFIN Bridge subscription needs payment');
    case 403:
      return new ProviderError('ERROR_REPAIRABLE', 'SimpleFIN refused the access: it was revoked, or the credentials changed; connect again with a new Setup Token');
    case 429:
      return new ProviderBusy('the SimpleFIN Bridge request budget is used up', Number(answer.headers['retry-after']) || 3600);
    default:
      return new ProviderError('ERROR_PROVIDER', `SimpleFIN answered ${answer.status}`, { retryAfterSeconds: RETRY_SECONDS });
  }
}

function readLogin(credential: string): string {
  try {
    const { accessUrl } = JSON.parse(credential) as { accessUrl?: unknown };
    if (typeof accessUrl === 'string') return accessUrl;
  } catch {
    // fall through
  }
  throw new ProviderError('ERROR_SERVICE', 'the stored SimpleFIN credential is unreadable');
}
