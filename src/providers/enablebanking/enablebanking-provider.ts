import type { Capability, EndUserPresence, WebhookAction, WindowProvider } from '../provider.ts';
import type { Institution, InstitutionQuery, LinkCompletion, LinkedLogin, LinkSession, LinkStart } from '../link-flow.ts';
import { LinkRefused, NotOffered, ProviderError, ProviderMisconfigured, WebhookUnverified } from '../provider-errors.ts';
import type { ProviderAccount, ProviderBalance, UnreadableItem, WindowSnapshot } from '../provider-records.ts';
import type { ProviderAccountOwners } from '../provider-owners.ts';
import type { AccountResource, AspspData, AuthorizeSessionResponse, BalanceResource, EbTransaction, GetSessionResponse, HalTransactions, StartAuthorizationResponse } from './api.ts';
import type { ApplicationToken } from './application-token.ts';
import { countryOfInstitution, institutionIdOf, toInstitution, type AspspLists } from './aspsps.ts';
import { EbUnreachable, type EbAnswer, type EbHttp, type EbRequest } from './enablebanking-client.ts';
import { consentEnded, errorCode, failure } from './failures.ts';
import { DEFAULT_REQUIRED_PSU_HEADERS, psuHeaders } from './psu-headers.ts';
import { toAccountOwners } from './owners.ts';
import { accountKey } from './transaction-ids.ts';
import { toAccount, toTransactions } from './transforms.ts';
import { DAY_MS } from '../../lib/dates.ts';

/** PSD2: a bank answers an account's data at most four times a day without the end-user present. */
const UNATTENDED_READS_PER_DAY = 4;
/** The longest consent Tributary asks for, whatever the bank allows. */
const MAX_CONSENT_DAYS = 180;
/** How long the end-user has to sign in at their bank once the link starts. */
const LINK_MINUTES = 30;
/** Pages of transactions read per account and window; more means something is wrong upstream. */
const MAX_PAGES = 100;
const RETRY_SECONDS = 900;
const AUTH_CODE_REFUSED = new Set(['WRONG_AUTHORIZATION_CODE', 'EXPIRED_AUTHORIZATION_CODE', 'ALREADY_AUTHORIZED', 'NO_ACCOUNTS_ADDED']);

export interface EnableBankingOptions {
  http: EbHttp;
  token: ApplicationToken;
  /** Banks per country, shared by every instance of the same application. */
  aspspLists: AspspLists;
  /** Keys the application's lists in `aspspLists`. */
  applicationId: string;
  /** Milliseconds; tests move it. */
  now?: () => number;
}

/** What the stored credential holds: EB's session (usable only with the application's key) and its bank. */
interface Login {
  sessionId: string;
  aspsp: { name: string; country: string };
}

/**
 * Enable Banking (https://enablebanking.com/docs/api/reference/), a PSD2 aggregator of European banks.
 * The end-user picks a bank (`searchInstitutions`), leaves for its sign-in (`startLink`: a REDIRECT),
 * comes back with a code that becomes an EB session (`completeLink`), and each sync reads the
 * session's accounts, balances and a window of transactions live from the bank. The consent ends
 * after at most 180 days; then the syncs report ERROR_REPAIRABLE until the end-user consents again.
 */
export class EnableBankingProvider implements WindowProvider {
  readonly name = 'enablebanking';
  readonly syncStyle = 'WINDOW' as const;
  /** docs/decisions/providers-enablebanking-capabilities.md */
  readonly capabilities: ReadonlySet<Capability> = new Set<Capability>(['TRANSACTIONS_REFRESH', 'ACCOUNT_OWNERS']);
  readonly requestBudgetPerDay = UNATTENDED_READS_PER_DAY;
  readonly budgetsUnattendedOnly = true;
  readonly #options: EnableBankingOptions;
  readonly #now: () => number;

  constructor(options: EnableBankingOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /** Banks of a country (or every country) whose name contains the fragment, for personal accounts. */
  async searchInstitutions(query: InstitutionQuery): Promise<Institution[]> {
    const country = query.country?.toUpperCase();
    if (country !== undefined && !/^[A-Z]{2}$/.test(country)) return [];
    const fragment = query.name?.trim().toLowerCase() ?? '';
    return (await this.#aspsps(country))
      .filter((aspsp) => aspsp.name.toLowerCase().includes(fragment))
      .map(toInstitution);
  }

  /** Asks EB for the bank's sign-in, for as long a consent as the bank gives (at most 180 days). */
  async startLink(request: LinkStart): Promise<LinkSession> {
    if (!request.institutionId) throw new LinkRefused('INVALID', 'institutionId', 'choose the bank to connect');
    if (!request.redirectUrl) throw new LinkRefused('INVALID', 'redirectUrl', 'Enable Banking needs the URL to send the end-user back to');
    if (!request.state) throw new LinkRefused('INVALID', 'state', 'Enable Banking needs the state to send back');
    const aspsp = await this.#aspsp(request.institutionId);
    const now = this.#now();
    const consentMs = Math.min((aspsp.maximum_consent_validity ?? MAX_CONSENT_DAYS * 86_400) * 1000, MAX_CONSENT_DAYS * DAY_MS);
    const answer = await this.#call({
      method: 'POST',
      path: '/auth',
      body: {
        access: { valid_until: new Date(now + consentMs).toISOString(), balances: true, transactions: true },
        aspsp: { name: aspsp.name, country: aspsp.country },
        state: request.state,
        redirect_url: request.redirectUrl,
        psu_type: 'personal',
      },
    });
    if (answer.status === 422 && errorCode(answer) === 'REDIRECT_URI_NOT_ALLOWED') {
      throw new ProviderMisconfigured(
        'Enable Banking does not allow the redirect URL',
        `add ${request.redirectUrl} to the application's allowed redirect URLs in Enable Banking's control panel, or set PUBLIC_URL to the origin registered there`,
      );
    }
    const started = json<StartAuthorizationResponse>(answer);
    if (typeof started.url !== 'string' || !started.url.startsWith('https://')) throw new ProviderError('ERROR_PROVIDER', 'Enable Banking returned no sign-in URL', { retryAfterSeconds: RETRY_SECONDS });
    return { kind: 'REDIRECT', url: started.url, expiresAt: new Date(now + LINK_MINUTES * 60_000).toISOString() };
  }

  /** Turns the code the bank sent back into an EB session; a repair replaces the old session (deleted upstream). */
  async completeLink(request: LinkCompletion): Promise<LinkedLogin> {
    const code = request.authorizationCode?.trim();
    if (!code) throw new LinkRefused('INVALID', 'authorizationCode', 'the bank sent back no authorization code');
    const answer = await this.#call({ method: 'POST', path: '/sessions', body: { code } });
    if (answer.status >= 400 && answer.status < 500 && AUTH_CODE_REFUSED.has(errorCode(answer) ?? '')) {
      throw new LinkRefused('INVALID', 'authorizationCode', 'this authorization code is expired, used or gave access to no account: connect the bank again');
    }
    const session = json<AuthorizeSessionResponse>(answer);
    if (typeof session.session_id !== 'string' || !session.aspsp?.name || !session.access?.valid_until) {
      throw new ProviderError('ERROR_PROVIDER', 'Enable Banking answered something other than a session', { retryAfterSeconds: RETRY_SECONDS });
    }
    if (request.existingCredential) await this.disconnect(request.existingCredential).catch(() => undefined);
    const login: Login = { sessionId: session.session_id, aspsp: { name: session.aspsp.name, country: session.aspsp.country } };
    return {
      credential: JSON.stringify(login),
      remoteId: null,
      institution: { id: institutionIdOf(login.aspsp), name: login.aspsp.name },
      // The holder comes with the account details every sync reads: owners are the end-user's to ask for.
      products: request.products?.includes('ACCOUNT_OWNERS') ? ['TRANSACTIONS', 'BALANCES', 'ACCOUNT_OWNERS'] : ['TRANSACTIONS', 'BALANCES'],
      consentExpiresAt: new Date(session.access.valid_until).toISOString(),
    };
  }

  async accounts(credential: string): Promise<ProviderAccount[]> {
    const login = readLogin(credential);
    const at = new Date(this.#now());
    const session = await this.#session(login);
    return Promise.all(session.accounts.map(async (uid) => (await this.#account(uid, at)).account));
  }

  /**
   * The session's accounts with their balances and every transaction from `start` until today, each
   * account's pages followed to the end. With `presence` the reads carry the end-user's PSU headers
   * when it has all the bank requires, and the bank does not count them against its four unattended
   * reads a day. What cannot be stored exactly is left out and listed in `unreadable`. The account
   * details name the holder and the end-user's role: the snapshot's owners, at no extra request.
   */
  async readWindow(credential: string, start: string, presence?: EndUserPresence): Promise<WindowSnapshot> {
    const login = readLogin(credential);
    const at = new Date(this.#now());
    const end = at.toISOString().slice(0, 10);
    const headers = presence ? psuHeaders(presence, await this.#requiredPsuHeaders(login.aspsp)) : {};
    const session = await this.#session(login);
    const hashes = new Map((session.accounts_data ?? []).map((data) => [data.uid, data.identification_hash]));
    const accounts: ProviderAccount[] = [];
    const transactions = [];
    const unreadable: UnreadableItem[] = [];
    const owners: ProviderAccountOwners[] = [];
    // One account after the other: a bank answers one PSU's requests slowly and may refuse parallel ones.
    for (const uid of session.accounts) {
      const { account, details } = await this.#account(uid, at, headers, unreadable);
      accounts.push(account);
      const holder = toAccountOwners(uid, details);
      if (holder) owners.push(holder);
      const entries = await this.#entries(uid, start, end, headers);
      transactions.push(...toTransactions(uid, accountKey(hashes.get(uid) ?? details.identification_hash ?? uid), account.currencyCode, entries, end, at, unreadable));
    }
    return { start, end, accounts, transactions, attention: null, unreadable, owners };
  }

  /** EB reads the bank live on every sync: the sync that follows the refresh is the refresh. */
  async refreshTransactions(): Promise<void> {}

  async refreshBalance(): Promise<ProviderBalance> {
    throw new NotOffered('BALANCE_REFRESH', this.name);
  }

  async accountNumbers(): Promise<{ number: string; routing: string }> {
    throw new NotOffered('ACCOUNT_NUMBERS', this.name);
  }

  /** Deletes the session, which closes the consent at the bank where it can; one already gone is fine. */
  async disconnect(credential: string): Promise<void> {
    const login = readLogin(credential);
    const answer = await this.#call({ method: 'DELETE', path: `/sessions/${encodeURIComponent(login.sessionId)}` });
    if (answer.status === 200 || answer.status === 404 || answer.status === 401) return;
    throw failure(answer);
  }

  async receiveWebhook(): Promise<WebhookAction[]> {
    throw new WebhookUnverified('Enable Banking sends no account information webhooks');
  }

  async #aspsps(country: string | undefined): Promise<AspspData[]> {
    return this.#options.aspspLists.of(`${this.#options.applicationId}:${country ?? '*'}`, async () => {
      const query = new URLSearchParams({ psu_type: 'personal', service: 'AIS' });
      if (country) query.set('country', country);
      const list = json<{ aspsps?: AspspData[] }>(await this.#call({ method: 'GET', path: `/aspsps?${query.toString()}` }));
      if (!Array.isArray(list.aspsps)) throw new ProviderError('ERROR_PROVIDER', 'Enable Banking answered something other than a list of banks', { retryAfterSeconds: RETRY_SECONDS });
      return list.aspsps.filter((aspsp) => typeof aspsp?.name === 'string' && typeof aspsp.country === 'string');
    });
  }

  /** The PSU headers the login's bank lists as required (from its country's list of banks, cached for hours). */
  async #requiredPsuHeaders(aspsp: Login['aspsp']): Promise<readonly string[]> {
    const listed = (await this.#aspsps(aspsp.country)).find((candidate) => candidate.name === aspsp.name)?.required_psu_headers;
    return Array.isArray(listed) && listed.every((name) => typeof name === 'string') ? listed : DEFAULT_REQUIRED_PSU_HEADERS;
  }

  async #aspsp(institutionId: string): Promise<AspspData> {
    const country = countryOfInstitution(institutionId);
    const aspsp = country ? (await this.#aspsps(country)).find((candidate) => institutionIdOf(candidate) === institutionId) : undefined;
    if (!aspsp) throw new LinkRefused('NOT_FOUND', 'institutionId', 'Enable Banking offers no such bank');
    return aspsp;
  }

  async #session(login: Login): Promise<GetSessionResponse> {
    const session = json<GetSessionResponse>(await this.#call({ method: 'GET', path: `/sessions/${encodeURIComponent(login.sessionId)}` }));
    if (session.status !== 'AUTHORIZED') throw consentEnded(`session ${String(session.status)}`);
    if (Date.parse(session.access?.valid_until) <= this.#now()) throw consentEnded('EXPIRED_SESSION');
    if (!Array.isArray(session.accounts) || session.accounts.some((uid) => typeof uid !== 'string')) {
      throw new ProviderError('ERROR_PROVIDER', 'Enable Banking answered a session without its accounts', { retryAfterSeconds: RETRY_SECONDS });
    }
    return session;
  }

  async #account(uid: string, at: Date, headers: Record<string, string> = {}, unreadable: UnreadableItem[] = []): Promise<{ account: ProviderAccount; details: AccountResource }> {
    const path = `/accounts/${encodeURIComponent(uid)}`;
    const details = json<AccountResource>(await this.#call({ method: 'GET', path: `${path}/details`, headers }));
    const { balances } = json<{ balances?: BalanceResource[] }>(await this.#call({ method: 'GET', path: `${path}/balances`, headers }));
    if (typeof details.currency !== 'string' || !Array.isArray(balances)) {
      throw new ProviderError('ERROR_PROVIDER', 'Enable Banking answered an account without its currency or balances', { retryAfterSeconds: RETRY_SECONDS });
    }
    return { account: toAccount(uid, details, balances, at, unreadable), details };
  }

  async #entries(uid: string, start: string, end: string, headers: Record<string, string>): Promise<EbTransaction[]> {
    const entries: EbTransaction[] = [];
    let continuation: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const query = new URLSearchParams({ date_from: start, date_to: end });
      if (continuation) query.set('continuation_key', continuation);
      const answer = json<HalTransactions>(await this.#call({ method: 'GET', path: `/accounts/${encodeURIComponent(uid)}/transactions?${query.toString()}`, headers }));
      if (!Array.isArray(answer.transactions)) throw new ProviderError('ERROR_PROVIDER', 'Enable Banking answered a page without transactions', { retryAfterSeconds: RETRY_SECONDS });
      entries.push(...answer.transactions);
      continuation = typeof answer.continuation_key === 'string' && answer.continuation_key ? answer.continuation_key : undefined;
      if (!continuation) return entries;
    }
    // A partial window would read as removals: nothing is reported rather than part.
    throw new ProviderError('ERROR_PROVIDER', `Enable Banking kept paging past ${MAX_PAGES} pages of one account's transactions`, { retryAfterSeconds: RETRY_SECONDS });
  }

  /** One request with the application's token (`json` reads its answer, or what a failed one means). */
  async #call(request: Omit<EbRequest, 'bearer'>): Promise<EbAnswer> {
    try {
      return await this.#options.http({ ...request, bearer: await this.#options.token.bearer() });
    } catch (error) {
      if (error instanceof EbUnreachable) throw new ProviderError('ERROR_PROVIDER', error.message, { retryAfterSeconds: RETRY_SECONDS });
      throw error;
    }
  }
}

function json<T>(answer: EbAnswer): T {
  if (answer.status >= 300) throw failure(answer);
  try {
    const body = JSON.parse(answer.body) as unknown;
    if (typeof body === 'object' && body !== null) return body as T;
  } catch {
    // fall through
  }
  throw new ProviderError('ERROR_PROVIDER', 'Enable Banking answered something other than JSON', { retryAfterSeconds: RETRY_SECONDS });
}

function readLogin(credential: string): Login {
  try {
    const login = JSON.parse(credential) as Partial<Login>;
    if (typeof login.sessionId === 'string' && typeof login.aspsp?.name === 'string' && typeof login.aspsp.country === 'string') return login as Login;
  } catch {
    // fall through
  }
  throw new ProviderError('ERROR_SERVICE', 'the stored Enable Banking credential is unreadable');
}
