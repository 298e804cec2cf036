import { randomBytes } from 'node:crypto';
import type { Capability, CursorProvider, WebhookAction } from '../provider.ts';
import type { Institution, InstitutionQuery, LinkCompletion, LinkedLogin, LinkSession, LinkStart } from '../link-flow.ts';
import type { InvestmentSnapshot } from '../provider-investments.ts';
import type { ProviderLiability } from '../provider-liabilities.ts';
import type { ProviderAccountOwners } from '../provider-owners.ts';
import type { ProviderAccount, ProviderBalance, SyncPage } from '../provider-records.ts';
import type { ProviderStatement, StatementDocument } from '../provider-statements.ts';
import { renderStatementPdf } from '../statement-pdf.ts';
import { LinkRefused, ProviderError, WebhookUnverified } from '../provider-errors.ts';
import { DAY_MS } from '../../lib/dates.ts';
import { dayOf, HISTORY_DAYS, type AccountRole } from './household.ts';
import { findInstitution, SANDBOX_INSTITUTIONS, type SandboxInstitution } from './institutions.ts';
import { portfolioValueCents, presentInvestments, type AccountPortfolio } from './investments.ts';
import { liabilityOf } from './liabilities.ts';
import { sandboxOwnersOf } from './owners.ts';
import { centsToDecimal } from './money.ts';
import { portfolioOf, type InvestmentRole } from './portfolio.ts';
import { digits, randomFor } from './random.ts';
import { householdOf, presentTransaction, visibleOn, type VisibleTransaction } from './transactions.ts';
import { hasStatements, listedStatement, periodOf, statementContent, statementMonths } from './statements.ts';

/** What the sandbox's access token carries (the token is stored encrypted on the connection). */
interface Login {
  institutionId: string;
  username: string;
  /** False in tokens issued before the sandbox checked passwords at sign-in: that login fails as it did. */
  passwordOk?: boolean;
  seed: string;
  /** First day of the connection's history (days since the epoch). */
  firstDay: number;
  /** Counts logins: a reconnect bumps it, and tokenized ACH numbers change with it. */
  generation: number;
}

/** Where Tributary serves the sandbox redirect banks' sign-in page (contracts/rest.yaml, getSandboxBank). */
export const SANDBOX_BANK_PATH = '/v1/sandbox/bank';
/** How long the bank's sign-in page takes the end-user, as a bank's authorization session would. */
const SANDBOX_BANK_SESSION_MS = 30 * 60_000;

/**
 * The usernames the sandbox signs in (any password but user_good's, which is pass_good), and the
 * error state each forces on every call after connecting (see listSandboxInstitutions).
 */
const FORCED_ERRORS = {
  user_good: undefined,
  // The login is accepted, then stops working (an expired MFA, a password changed at the bank).
  user_bad_login: 'ERROR_REPAIRABLE',
  user_institution_down: 'ERROR_INSTITUTION',
  user_provider_error: 'ERROR_PROVIDER',
  user_service_error: 'ERROR_SERVICE',
} as const;

export interface SandboxOptions {
  now?: () => Date;
  /** A new connection's seed; random by default (a test fixes it to get one household, whose pendings it knows). */
  seed?: () => string;
  /** How far back a new connection's history reaches (the dataset generator asks for less). */
  historyDays?: number;
  /** Transaction changes per sync page. */
  pageSize?: number;
}

/**
 * The built-in sandbox institutions: deterministic per connection (a random seed fixed at connect),
 * with history, pending transactions that post, corrections, reversals and new activity every day
 * as the clock moves. Sync cursors are `<from day>.<to day>.<offset>` while paging and `<day>` at
 * rest: each sync reports the difference between what the institution showed on those two days.
 */
export class SandboxProvider implements CursorProvider {
  readonly name = 'sandbox';
  readonly syncStyle = 'CURSOR' as const;
  readonly capabilities: ReadonlySet<Capability> = new Set<Capability>([
    'ACCOUNT_NUMBERS',
    'BALANCE_REFRESH',
    'TRANSACTIONS_REFRESH',
    'INVESTMENTS',
    'INVESTMENT_TRANSACTIONS',
    'LIABILITIES',
    'ACCOUNT_OWNERS',
    'STATEMENTS',
  ]);
  readonly #now: () => Date;
  readonly #seed: () => string;
  readonly #pageSize: number;
  readonly #historyDays: number;

  constructor(options: SandboxOptions = {}) {
    this.#now = options.now ?? (() => new Date());
    this.#seed = options.seed ?? (() => randomBytes(8).toString('hex'));
    this.#pageSize = options.pageSize ?? 500;
    this.#historyDays = options.historyDays ?? HISTORY_DAYS;
  }

  institutions(): Institution[] {
    return SANDBOX_INSTITUTIONS.map(presentInstitution);
  }

  async searchInstitutions({ country, name }: InstitutionQuery): Promise<Institution[]> {
    const fragment = name?.toLocaleLowerCase();
    return SANDBOX_INSTITUTIONS.filter(
      (institution) => (!country || institution.countries.includes(country)) && (!fragment || institution.name.toLocaleLowerCase().includes(fragment)),
    ).map((institution) => ({ ...presentInstitution(institution), countries: institution.countries, logoUrl: null }));
  }

  /**
   * The credential form (over every credential institution, or the one asked for), or for a
   * redirect bank its own sign-in page, served by Tributary itself at `/v1/sandbox/bank` on the
   * origin of `redirectUrl`.
   */
  async startLink(request: LinkStart): Promise<LinkSession> {
    const institution = request.institutionId === undefined ? undefined : findInstitution(request.institutionId);
    if (request.institutionId !== undefined && !institution) throw new LinkRefused('NOT_FOUND', 'institutionId', 'Institution');
    if (institution?.link !== 'REDIRECT') {
      const offered = institution ? [institution] : SANDBOX_INSTITUTIONS.filter((candidate) => candidate.link === 'CREDENTIALS');
      return { kind: 'CREDENTIALS', institutions: offered.map(presentInstitution) };
    }
    if (!request.redirectUrl || !request.state) throw new LinkRefused('INVALID', 'redirectUrl', `${institution.name} signs in at its own page and needs a redirect URL and a state`);
    const url = new URL(SANDBOX_BANK_PATH, request.redirectUrl);
    url.searchParams.set('state', request.state);
    return { kind: 'REDIRECT', url: url.href, expiresAt: new Date(this.#now().getTime() + SANDBOX_BANK_SESSION_MS).toISOString() };
  }

  /** What a redirect bank's page hands back when the end-user approves: the bank's authorization code for `institutionId`. */
  authorizationCode(institutionId: string): string {
    return Buffer.from(JSON.stringify({ institutionId, nonce: randomBytes(8).toString('hex') })).toString('base64url');
  }

  /**
   * Logs in at an institution (or, with `existingCredential`, the same login again: repair): with a
   * username and password at a credential institution, or with the authorization code a redirect
   * bank's page issued (its end-user is user_good).
   */
  async completeLink(request: LinkCompletion): Promise<LinkedLogin> {
    const previous = request.existingCredential ? readLogin(request.existingCredential) : undefined;
    const institution = findInstitution(previous?.institutionId ?? request.institutionId ?? '');
    if (!institution) throw new LinkRefused('NOT_FOUND', 'institutionId', 'Institution');
    const approved = request.authorizationCode !== undefined;
    if (!approved && (!request.username || !request.password)) throw new LinkRefused('INVALID', request.username ? 'password' : 'username', 'the sandbox needs a username and a password');
    const unsupported = (request.products ?? []).filter((product) => !institution.products.includes(product));
    if (unsupported.length > 0) {
      throw new LinkRefused('INVALID', 'products', `${institution.name} does not offer ${unsupported.join(', ')}; it offers ${institution.products.join(', ')}`);
    }
    if (approved) {
      if (codeInstitution(request.authorizationCode!) !== institution.id) throw new LinkRefused('INVALID', 'authorizationCode', `${institution.name} did not issue this authorization code`);
    } else if (!signsIn(request.username!, request.password!)) {
      throw new LinkRefused('CREDENTIALS', 'password', `${institution.name} refused the sign-in: the username or password is wrong`);
    }
    const login: Login = {
      institutionId: institution.id,
      username: approved ? 'user_good' : request.username!,
      seed: previous?.seed ?? this.#seed(),
      firstDay: previous?.firstDay ?? dayOf(this.#now().getTime()) - this.#historyDays,
      generation: (previous?.generation ?? 0) + 1,
    };
    return {
      credential: Buffer.from(JSON.stringify(login)).toString('base64url'),
      remoteId: null,
      institution: { id: institution.id, name: institution.name },
      // Statements are enabled only when asked for, as Plaid bills them (docs/decisions/statements-when-fetched.md).
      products: request.products ?? institution.products.filter((product) => product !== 'STATEMENTS'),
      consentExpiresAt: institution.consentDays ? new Date(this.#now().getTime() + institution.consentDays * DAY_MS).toISOString() : null,
    };
  }

  async accounts(accessToken: string): Promise<ProviderAccount[]> {
    const { login, institution } = this.#authorize(accessToken);
    const today = this.#today();
    const transactions = this.#visibleOn(login, institution, today);
    return institution.accounts.map((template) => ({
      remoteId: accountRemoteIdOf(login, template.key),
      name: template.name,
      kind: template.kind,
      subtype: template.subtype,
      state: 'OPEN',
      mask: maskOf(login, template.key),
      currencyCode: institution.currencyCode,
      balance: this.#balance(login, institution, template.key, transactions),
      identifier: institution.reissuesAccountIds ? ibanOf(login, template.key) : null,
    }));
  }

  async syncTransactions(accessToken: string, cursor: string | null): Promise<SyncPage> {
    const { login, institution } = this.#authorize(accessToken);
    const position = parseCursor(cursor, this.#today());
    const before = position.from === null ? new Map<string, VisibleTransaction>() : indexById(this.#visibleOn(login, institution, position.from));
    const after = indexById(this.#visibleOn(login, institution, position.to));
    // Added before modified before removed: a posted transaction must arrive before the removal
    // of the pending one it replaces, so the pending row can be updated in place.
    const changes: Array<{ kind: 'added' | 'modified' | 'removed'; transaction: VisibleTransaction }> = [];
    for (const [id, transaction] of after) if (!before.has(id)) changes.push({ kind: 'added', transaction });
    for (const [id, transaction] of after) {
      const old = before.get(id);
      if (old && (old.cents !== transaction.cents || old.date !== transaction.date || old.corrected !== transaction.corrected)) changes.push({ kind: 'modified', transaction });
    }
    for (const [id, transaction] of before) if (!after.has(id)) changes.push({ kind: 'removed', transaction });
    const page = changes.slice(position.offset, position.offset + this.#pageSize);
    const hasMore = position.offset + page.length < changes.length;
    const present = (kind: 'added' | 'modified') =>
      page.filter((change) => change.kind === kind).map((change) => presentTransaction(accountRemoteIdOf(login, change.transaction.account), change.transaction, this.#now()));
    return {
      added: present('added'),
      modified: present('modified'),
      removed: page.filter((change) => change.kind === 'removed').map((change) => change.transaction.remoteId),
      nextCursor: hasMore ? `${position.from ?? ''}.${position.to}.${position.offset + page.length}` : String(position.to),
      hasMore,
    };
  }

  /** The brokerage and 401k accounts' holdings today and their activity from `start`; none at an institution without them. */
  async investments(accessToken: string, start: string): Promise<InvestmentSnapshot> {
    const { login, institution } = this.#authorize(accessToken);
    const startDay = dayOf(Date.parse(start));
    if (!Number.isSafeInteger(startDay)) throw new ProviderError('ERROR_PROVIDER', `unreadable start date ${start}`);
    const today = this.#today();
    const accounts: AccountPortfolio[] = institution.accounts.flatMap(({ key }) =>
      isInvestment(key) ? [{ accountRemoteId: accountRemoteIdOf(login, key), portfolio: this.#portfolio(login, institution, key, today) }] : [],
    );
    // Nothing happened before the connection's history began: a start before it means all of it.
    return presentInvestments(accounts, Math.max(startDay, login.firstDay), today);
  }

  /** The card and loan accounts' debt details, from the same transactions the sync reports. */
  async liabilities(accessToken: string): Promise<ProviderLiability[]> {
    const { login, institution } = this.#authorize(accessToken);
    const today = this.#today();
    const transactions = this.#visibleOn(login, institution, today);
    const household = householdOf(login.seed, institution, login.firstDay);
    return institution.accounts
      .filter((template) => template.kind === 'CREDIT' || template.kind === 'LOAN')
      .map((template) => liabilityOf({ seed: login.seed, household, template, accountRemoteId: accountRemoteIdOf(login, template.key), transactions, today }));
  }

  /** Every account's owners: the country's sandbox household, both of them on a joint account. */
  async owners(accessToken: string): Promise<ProviderAccountOwners[]> {
    const { login, institution } = this.#authorize(accessToken);
    return institution.accounts.map(({ key }) => ({ accountRemoteId: accountRemoteIdOf(login, key), owners: sandboxOwnersOf(key, institution.countries[0]!) }));
  }

  /** A statement per account (but investment accounts) per complete month of the history before this one. */
  async statements(accessToken: string): Promise<ProviderStatement[]> {
    const { login, institution } = this.#authorize(accessToken);
    const months = statementMonths(login.firstDay, this.#today());
    return institution.accounts
      .filter(hasStatements)
      .flatMap((template) => months.map((month) => listedStatement(login.seed, accountRemoteIdOf(login, template.key), { key: template.key, month }, login.firstDay)));
  }

  /** A statement's PDF, from the transactions reported today (the sandbox gives no digest: Tributary computes its own). */
  async statementDocument(accessToken: string, statement: { remoteId: string }): Promise<StatementDocument> {
    const { login, institution } = this.#authorize(accessToken);
    const period = periodOf(login.seed, statement.remoteId);
    const template = period && institution.accounts.find((account) => account.key === period.key && hasStatements(account));
    if (!period || !template || !statementMonths(login.firstDay, this.#today()).includes(period.month)) throw new ProviderError('ERROR_PROVIDER', `unknown statement ${statement.remoteId}`);
    const content = statementContent({
      seed: login.seed,
      household: householdOf(login.seed, institution, login.firstDay),
      firstDay: login.firstDay,
      period,
      template,
      accountRemoteId: accountRemoteIdOf(login, template.key),
      mask: maskOf(login, template.key),
      institution,
      transactions: this.#visibleOn(login, institution, this.#today()),
      now: this.#now(),
    });
    return { bytes: await renderStatementPdf(content), sha256: null };
  }

  async refreshBalance(accessToken: string, accountRemoteId: string): Promise<ProviderBalance> {
    const { login, institution } = this.#authorize(accessToken);
    const template = institution.accounts.find((account) => accountRemoteIdOf(login, account.key) === accountRemoteId);
    if (!template) throw new ProviderError('ERROR_PROVIDER', `unknown account ${accountRemoteId}`);
    return this.#balance(login, institution, template.key, this.#visibleOn(login, institution, this.#today()));
  }

  async accountNumbers(accessToken: string, accountRemoteId: string): Promise<{ number: string; routing: string }> {
    const { login, institution } = this.#authorize(accessToken);
    const key = institution.accounts.find((account) => accountRemoteIdOf(login, account.key) === accountRemoteId)?.key;
    if (!key) throw new ProviderError('ERROR_PROVIDER', `unknown account ${accountRemoteId}`);
    const mask = maskOf(login, key);
    if (!institution.tokenizedNumbers) return { number: `${digits(randomFor(`${login.seed}:${key}:number`), 6)}${mask}`, routing: institution.routing };
    // Tokenized: a surrogate that changes with every login and never ends with the real mask.
    const random = randomFor(`${login.seed}:${key}:token:${login.generation}`);
    let number = `9${digits(random, 15)}`;
    while (number.endsWith(mask)) number = `9${digits(random, 15)}`;
    return { number, routing: institution.routing };
  }

  async disconnect(accessToken: string): Promise<void> {
    readLogin(accessToken);
  }

  /** New sandbox activity appears as the clock moves; the sync that follows a refresh picks it up. */
  async refreshTransactions(accessToken: string): Promise<void> {
    this.#authorize(accessToken);
  }

  async receiveWebhook(): Promise<WebhookAction[]> {
    throw new WebhookUnverified('the sandbox sends no webhooks');
  }

  #today(): number {
    return dayOf(this.#now().getTime());
  }

  #authorize(accessToken: string): { login: Login; institution: SandboxInstitution } {
    const login = readLogin(accessToken);
    const institution = findInstitution(login.institutionId);
    if (!institution) throw new ProviderError('ERROR_INSTITUTION', `institution ${login.institutionId} is not supported`);
    // A username or password the sign-in refuses only comes in tokens issued before it checked them.
    const forced = isSandboxUser(login.username) && login.passwordOk !== false ? FORCED_ERRORS[login.username] : 'ERROR_REPAIRABLE';
    if (forced) throw new ProviderError(forced, forcedMessage(forced));
    return { login, institution };
  }

  #visibleOn(login: Login, institution: SandboxInstitution, today: number): VisibleTransaction[] {
    return visibleOn(login.seed, householdOf(login.seed, institution, login.firstDay), login.firstDay, today);
  }

  #portfolio(login: Login, institution: SandboxInstitution, role: InvestmentRole, today: number) {
    return portfolioOf(householdOf(login.seed, institution, login.firstDay), login.seed, role, today);
  }

  /**
   * Balances follow from the opening balance and what has posted, so they agree with the transactions;
   * an investment account's is its holdings' value at today's prices, cash included.
   */
  #balance(login: Login, institution: SandboxInstitution, key: AccountRole, transactions: VisibleTransaction[]): ProviderBalance {
    if (isInvestment(key)) {
      const today = this.#today();
      return { at: this.#now(), current: centsToDecimal(portfolioValueCents(this.#portfolio(login, institution, key, today), today)), available: null, limit: null };
    }
    const household = householdOf(login.seed, institution, login.firstDay);
    const opening = household.opening(key);
    let posted = 0;
    let pending = 0;
    for (const transaction of transactions) {
      if (transaction.account !== key) continue;
      if (transaction.status === 'POSTED') posted += transaction.cents;
      else pending += transaction.cents;
    }
    const current = opening + posted;
    const limit = key === 'card' ? -household.creditLimit : null;
    const available = key === 'card' ? current - limit! + pending : key === 'checking' || key === 'savings' ? current + pending : null;
    return {
      at: this.#now(),
      current: centsToDecimal(current),
      available: available === null ? null : centsToDecimal(available),
      limit: limit === null ? null : centsToDecimal(limit),
    };
  }
}

function presentInstitution({ id, name, products, description }: SandboxInstitution): Institution {
  return { id, name, products, description };
}

/** The institution an authorization code of `authorizationCode` names; undefined for one the sandbox did not issue. */
function codeInstitution(code: string): string | undefined {
  try {
    const parsed = JSON.parse(Buffer.from(code, 'base64url').toString('utf8')) as { institutionId?: unknown };
    return typeof parsed.institutionId === 'string' ? parsed.institutionId : undefined;
  } catch {
    return undefined;
  }
}

function isInvestment(key: AccountRole): key is InvestmentRole {
  return key === 'brokerage' || key === 'retirement';
}

function isSandboxUser(username: string): username is keyof typeof FORCED_ERRORS {
  return Object.hasOwn(FORCED_ERRORS, username);
}

/** The sandbox's sign-in, as a bank's: it rejects an unknown user or a wrong password on the spot. */
function signsIn(username: string, password: string): boolean {
  return isSandboxUser(username) && (username !== 'user_good' || password === 'pass_good');
}

function forcedMessage(status: string): string {
  switch (status) {
    case 'ERROR_REPAIRABLE':
      return 'the institution no longer accepts the login (an expired MFA or a changed password): the end-user must sign in again';
    case 'ERROR_INSTITUTION':
      return 'the institution is down for maintenance';
    case 'ERROR_PROVIDER':
      return 'the upstream aggregator failed';
    default:
      return 'an internal error occurred while syncing';
  }
}

function readLogin(accessToken: string): Login {
  try {
    const login = JSON.parse(Buffer.from(accessToken, 'base64url').toString('utf8')) as Login;
    if (typeof login.seed === 'string' && typeof login.firstDay === 'number') return login;
  } catch {
    // fall through: a token this provider did not issue
  }
  throw new ProviderError('ERROR_REPAIRABLE', 'the access token is not valid');
}

/** The account's id upstream; at an institution that reissues them, a new one with every sign-in. */
function accountRemoteIdOf(login: Login, key: AccountRole): string {
  const reissued = findInstitution(login.institutionId)?.reissuesAccountIds ? `-${login.generation}` : '';
  return `${login.seed.slice(0, 10)}-${key}${reissued}`;
}

/** A made-up IBAN, the same across sign-ins. */
function ibanOf(login: Login, key: AccountRole): string {
  const random = randomFor(`${login.seed}:${key}:iban`);
  return `GB${digits(random, 2)}KEAB${digits(random, 14)}`;
}

function maskOf(login: Login, key: AccountRole): string {
  return digits(randomFor(`${login.seed}:${key}:mask`), 4);
}

function indexById(transactions: VisibleTransaction[]): Map<string, VisibleTransaction> {
  return new Map(transactions.map((transaction) => [transaction.remoteId, transaction]));
}

function parseCursor(cursor: string | null, today: number): { from: number | null; to: number; offset: number } {
  if (cursor === null) return { from: null, to: today, offset: 0 };
  const paging = /^(\d*)\.(\d+)\.(\d+)$/.exec(cursor);
  if (paging) return { from: paging[1] ? Number(paging[1]) : null, to: Number(paging[2]), offset: Number(paging[3]) };
  if (/^\d+$/.test(cursor)) return { from: Number(cursor), to: Math.max(Number(cursor), today), offset: 0 };
  throw new ProviderError('ERROR_PROVIDER', `unreadable sync cursor ${cursor}`);
}
