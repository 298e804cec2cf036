import { AccountType, Products, TransactionsUpdateStatus, type AccountBase, type Owner, type Transaction } from 'plaid';
import { ActivityGenerator, HISTORY_DAYS, type Activity } from './activity.ts';
import type { PlaidErrorBody } from './errors.ts';
import { ACCOUNTS, OPENABLE_ACCOUNTS, PRODUCT_ACCOUNTS, type AccountKey, type AccountTemplate, type FakeInstitution } from './catalog.ts';
import { sandboxOwners } from './identity.ts';
import { FakeBrokerage } from './investments.ts';
import { liabilitiesOf, type LiabilityPatch } from './liabilities.ts';
import { digits, randomFor } from '../../../src/providers/sandbox/random.ts';
import { plaidId, uuidFrom } from './ids.ts';
import { buildTransaction, transactionIds } from './transaction.ts';
import { statementsPosted, type FakeStatement } from './statements.ts';

/** One entry of an Item's change log; `/transactions/sync` cursors are positions in this log. */
export interface Change {
  kind: 'added' | 'modified' | 'removed';
  transactionId: string;
  accountId: string;
}

export interface ItemAccount {
  template: AccountTemplate;
  accountId: string;
  /** ACH account number (depository accounts); tokenized institutions issue a new one per Item. */
  accountNumber: string;
  persistentAccountId: string | null;
  /** Balance before any visible transaction, in cents, so `current` follows the transactions. */
  openingCents: number;
  /** /accounts/get reports it; when false only `/transactions/sync`'s `accounts` does (with its transactions). */
  listed: boolean;
  /** Balances reported as set by `reportBalances`, over the ones that follow the transactions. */
  reported: Partial<AccountBase['balances']>;
}

export interface ItemSetup {
  seed: string;
  index: number;
  institution: FakeInstitution;
  products: Products[];
  webhook: string | null;
  today: number;
  /** Transactions over the full `HISTORY_DAYS`; an Item asking for fewer days gets its share. */
  transactionCount: number;
  daysRequested: number;
  /** The statements window the link asked for (with Statements): the statements posted in it are there from the start. */
  statements?: { start_date: string; end_date: string } | null;
}

const cents = (amount: number) => Math.round(amount * 100);

/**
 * A Plaid Item: its accounts, the transactions Plaid currently reports (`view`), the change log
 * that sync cursors walk, and the institution's activity not visible yet (`open`: future days,
 * pending authorisations waiting to post).
 */
export class FakeItem {
  readonly itemId: string;
  readonly accessToken: string;
  readonly institution: FakeInstitution;
  readonly createdAt = new Date();
  readonly accounts: ItemAccount[];
  readonly view = new Map<string, Transaction>();
  readonly log: Change[] = [];
  products: Products[];
  webhook: string | null;
  error: PlaidErrorBody | null = null;
  removed = false;
  lastUpdate = new Date();
  lastWebhook: { sentAt: Date; code: string } | null = null;
  /** When the end-user's consent ends (European institutions); null: no end, as at US institutions. */
  consentExpiresAt: Date | null = null;
  updateStatus = TransactionsUpdateStatus.HistoricalUpdateComplete;
  /** Set by `injectMutationDuringPagination`: the next walk with more than one page is disturbed. */
  mutationPending = false;
  /** Set by `injectInvestmentActivityDuringPaging`: a trade arrives before the next later page is read. */
  investmentActivityPending = false;
  /** The brokerage account's positions and activity, when the Item was created with Investments. */
  readonly brokerage: FakeBrokerage | null;
  /** The statements Plaid holds for the Item, by id: those of the link's window, and those refreshes added. */
  readonly statements = new Map<string, FakeStatement>();
  /** Set by `tamperStatements`: downloads name a digest their bytes do not have. */
  tamperedStatements = false;
  /** A test's changes to liability details, by account id. */
  readonly liabilityPatches = new Map<string, LiabilityPatch>();
  /** A test's owners of an account (`setOwners`), by account id, over Plaid Sandbox's one owner. */
  readonly owners = new Map<string, Owner[]>();
  #open: Activity[];
  #syncedDay: number;
  #extraSerial = 0;
  readonly #generator: ActivityGenerator;
  readonly #seed: string;

  constructor(setup: ItemSetup) {
    this.itemId = plaidId(setup.seed, 'item', setup.index);
    this.accessToken = `access-sandbox-${uuidFrom(setup.seed, 'access-token', setup.index)}`;
    this.institution = setup.institution;
    this.products = [...setup.products];
    this.webhook = setup.webhook;
    this.#seed = setup.seed;
    this.#generator = new ActivityGenerator(setup.seed, setup.index, {
      firstDay: setup.today - setup.daysRequested + 1,
      purchasesPerDay: Math.max(0.5, setup.transactionCount / HISTORY_DAYS - 0.35),
    });
    const productAccounts = PRODUCT_ACCOUNTS.filter((template) => setup.products.includes(template.product));
    this.accounts = [...ACCOUNTS, ...productAccounts].map((template) => this.#newAccount(template));
    const brokerage = this.accounts.find((account) => account.template.key === 'brokerage');
    this.brokerage = brokerage ? new FakeBrokerage(setup.seed, brokerage.accountId, setup.today - setup.daysRequested + 1, setup.today) : null;
    this.#open = this.#generator.history(setup.today, setup.daysRequested, Math.round((setup.transactionCount * setup.daysRequested) / HISTORY_DAYS));
    this.#syncedDay = setup.today;
    this.#settle(setup.today);
    if (setup.statements && setup.products.includes(Products.Statements)) this.issueStatements(setup.statements, setup.today);
    for (const account of this.accounts) {
      const posted = this.#postedCents(account.accountId);
      account.openingCents = account.template.currentAtLink + (isAsset(account.template) ? posted : -posted);
    }
  }

  /** /identity/get's owners of the account. */
  ownersOf(accountId: string): Owner[] {
    return this.owners.get(accountId) ?? sandboxOwners();
  }

  account(key: AccountKey): ItemAccount {
    const account = this.accounts.find((candidate) => candidate.template.key === key);
    if (!account) throw new Error(`item ${this.itemId} has no ${key} account (openAccount first)`);
    return account;
  }

  /** The institution opens an account of `OPENABLE_ACCOUNTS` on the Item; unlisted, /accounts/get leaves it out. */
  openAccount(key: AccountKey, options: { listed: boolean }): ItemAccount {
    if (this.accounts.some((account) => account.template.key === key)) throw new Error(`item ${this.itemId} already has a ${key} account`);
    const template = OPENABLE_ACCOUNTS.find((candidate) => candidate.key === key);
    if (!template) throw new Error(`${key} is not an account an Item can open`);
    const account = { ...this.#newAccount(template), listed: options.listed };
    this.accounts.push(account);
    return account;
  }

  /** Plaid's update from the institution: days up to `today` happen, pending authorisations post. Returns how many changes it logged. */
  update(today: number): number {
    for (let day = this.#syncedDay + 1; day <= today; day++) this.#open.push(...this.#generator.day(day));
    this.#syncedDay = Math.max(this.#syncedDay, today);
    this.lastUpdate = new Date();
    return this.#settle(today);
  }

  /** Adds the statements posted in the window (a link's, or a /statements/refresh's); how many were new. */
  issueStatements(window: { start_date: string; end_date: string }, today: number): number {
    const before = this.statements.size;
    for (const statement of statementsPosted(this, window, today)) if (!this.statements.has(statement.statementId)) this.statements.set(statement.statementId, statement);
    return this.statements.size - before;
  }

  /** New card purchases authorised on `today`, visible at once. */
  addPurchases(today: number, count: number, options: { pending?: boolean; account?: AccountKey }): Transaction[] {
    const activities = this.#generator.extra(today, count, this.#extraSerial++, options);
    this.#open.push(...activities);
    this.#settle(today);
    return activities.map((activity) => {
      const ids = transactionIds(this.itemId, activity);
      return structuredClone(this.view.get(ids.pending) ?? this.view.get(ids.posted)!);
    });
  }

  /** Posts a pending transaction now, under a new id, optionally for a different amount (a tip). */
  postPending(today: number, pendingId: string | undefined, amount: number | undefined): Transaction {
    const pending = pendingId === undefined ? this.#oldestPending() : this.view.get(pendingId);
    if (!pending?.pending) throw new Error(pendingId === undefined ? `item ${this.itemId} has no pending transaction` : `${pendingId} is not a pending transaction of item ${this.itemId}`);
    const activity = this.#open.find((candidate) => transactionIds(this.itemId, candidate).pending === pending.transaction_id)!;
    this.#open.splice(this.#open.indexOf(activity), 1);
    const settled = { ...activity, postDay: Math.max(today, activity.authorizedDay), cents: amount === undefined ? activity.cents : cents(amount) };
    this.#remove(pending.transaction_id);
    return structuredClone(this.#add(settled, 'posted'));
  }

  modify(transactionId: string, patch: Partial<Transaction>): Transaction {
    const current = this.#visible(transactionId);
    const next = { ...current, ...structuredClone(patch), transaction_id: transactionId, account_id: current.account_id };
    this.view.set(transactionId, next);
    this.log.push({ kind: 'modified', transactionId, accountId: next.account_id });
    return structuredClone(next);
  }

  /** Removes a transaction; a pending one is dropped for good (the authorisation never posts). */
  remove(transactionId: string): void {
    this.#visible(transactionId);
    this.#open = this.#open.filter((activity) => transactionIds(this.itemId, activity).pending !== transactionId);
    this.#remove(transactionId);
  }

  /** /liabilities/get's details of the Item's card, student loan and (with Liabilities) mortgage. */
  liabilities(today: number) {
    const owed = (key: AccountKey) => {
      const account = this.account(key);
      return { accountId: account.accountId, current: this.describeAccount(account, null).balances.current! };
    };
    const hasMortgage = this.accounts.some((account) => account.template.key === 'mortgage');
    return liabilitiesOf({ today, credit: owed('credit'), student: owed('student'), mortgage: hasMortgage ? owed('mortgage') : null, patches: this.liabilityPatches });
  }

  /** The account as Plaid reports it, with balances following the visible transactions (a brokerage's: its holdings). */
  describeAccount(account: ItemAccount, lastUpdated: string | null): AccountBase {
    const { template } = account;
    const posted = this.#postedCents(account.accountId);
    const pendingOut = [...this.view.values()].filter((t) => t.pending && t.account_id === account.accountId && t.amount > 0).reduce((sum, t) => sum + cents(t.amount), 0);
    const asset = isAsset(template);
    // Plaid's conventions: for credit and loan accounts `current` is the positive amount owed.
    const current = asset ? account.openingCents - posted : account.openingCents + posted;
    const available = asset ? current - pendingOut : template.limit !== null ? template.limit - current - pendingOut : null;
    return {
      account_id: account.accountId,
      balances: {
        available: available === null ? null : available / 100,
        current: current / 100,
        limit: template.limit === null ? null : template.limit / 100,
        iso_currency_code: 'USD',
        unofficial_currency_code: null,
        last_updated_datetime: lastUpdated,
        ...(this.brokerage?.accountId === account.accountId ? this.brokerage.balances() : {}),
        ...account.reported,
      },
      mask: template.mask,
      name: template.name,
      official_name: template.officialName,
      type: template.type,
      subtype: template.subtype,
      ...(account.persistentAccountId === null ? {} : { persistent_account_id: account.persistentAccountId }),
    };
  }

  #newAccount(template: AccountTemplate): ItemAccount {
    const { institution } = this;
    const numbers = randomFor(institution.tokenizedAccountNumbers ? `${this.itemId}:${template.key}` : `${this.#seed}:${institution.id}:${template.key}`);
    return {
      template,
      accountId: plaidId(this.itemId, 'account', template.key),
      accountNumber: digits(numbers, institution.tokenizedAccountNumbers ? 16 : 10),
      persistentAccountId: institution.tokenizedAccountNumbers ? plaidId(this.#seed, institution.id, 'persistent', template.key) : null,
      openingCents: template.currentAtLink,
      listed: true,
      reported: {},
    };
  }

  #settle(today: number): number {
    const before = this.log.length;
    this.#open.sort((a, b) => a.authorizedDay - b.authorizedDay);
    this.#open = this.#open.filter((activity) => {
      if (activity.authorizedDay > today) return true;
      const ids = transactionIds(this.itemId, activity);
      if (activity.pendingCents !== null && today < activity.postDay) {
        if (!this.view.has(ids.pending)) this.#add(activity, 'pending');
        return true;
      }
      if (this.view.has(ids.pending)) this.#remove(ids.pending);
      this.#add(activity, 'posted');
      return false;
    });
    return this.log.length - before;
  }

  #add(activity: Activity, stage: 'pending' | 'posted'): Transaction {
    const transaction = buildTransaction(this.itemId, this.account(activity.account).accountId, activity, stage);
    this.view.set(transaction.transaction_id, transaction);
    this.log.push({ kind: 'added', transactionId: transaction.transaction_id, accountId: transaction.account_id });
    return transaction;
  }

  #remove(transactionId: string) {
    const transaction = this.view.get(transactionId)!;
    this.view.delete(transactionId);
    this.log.push({ kind: 'removed', transactionId, accountId: transaction.account_id });
  }

  #visible(transactionId: string): Transaction {
    const transaction = this.view.get(transactionId);
    if (!transaction) throw new Error(`item ${this.itemId} has no transaction ${transactionId}`);
    return transaction;
  }

  #oldestPending(): Transaction | undefined {
    return [...this.view.values()].filter((t) => t.pending).sort((a, b) => a.date.localeCompare(b.date) || a.transaction_id.localeCompare(b.transaction_id))[0];
  }

  #postedCents(accountId: string): number {
    let sum = 0;
    for (const transaction of this.view.values()) if (!transaction.pending && transaction.account_id === accountId) sum += cents(transaction.amount);
    return sum;
  }
}

/** Money the holder has (depository, other) rather than owes (credit, loan). */
function isAsset(template: AccountTemplate): boolean {
  return template.type !== AccountType.Credit && template.type !== AccountType.Loan;
}
