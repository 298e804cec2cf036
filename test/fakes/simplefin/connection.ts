import { centsToDecimal } from '../../../src/providers/sandbox/money.ts';
import { uuidFrom } from '../plaid/ids.ts';
import { ActivityGenerator, DAY, HISTORY_DAYS, visibleFrom, type Activity } from './activity.ts';
import { FakeBrokerage, type BridgeHolding } from './brokerage.ts';
import { ACCOUNTS, BROKERAGE, ORGS, type AccountKey, type AccountTemplate, type OrgTemplate } from './catalog.ts';
import { parseCents } from './money.ts';

/** A transaction as the bridge reports it under `version=2` (version 1 leaves out `payee`, `memo`, `mcc`). */
export interface SimplefinTransaction {
  id: string;
  /** Unix seconds; 0 while pending. */
  posted: number;
  /** Decimal string, positive = money into the account. */
  amount: string;
  description: string;
  /** Unix seconds the card was used; absent for ACH and transfers. */
  transacted_at?: number;
  /** Present (true) only while pending: the bridge leaves the key out once a transaction has posted. */
  pending?: true;
  payee: string;
  memo: string;
  mcc: string | null;
}

/** An entry of the v2 `errlist`; version 1 reports only `msg`, in `errors`. */
export interface BridgeError {
  code: string;
  msg: string;
  conn_id?: string;
  account_id?: string;
}

/** What a test may change on a reported transaction (`modifyTransaction`). */
export type TransactionPatch = Partial<Pick<SimplefinTransaction, 'amount' | 'description' | 'payee' | 'memo' | 'posted' | 'transacted_at'>>;

/** One login at an institution (a v2 "connection"): an org and the accounts reached through it. */
export interface BankLogin {
  connId: string;
  name: string;
  orgId: string;
  org: OrgTemplate;
}

export interface ConnectionAccount {
  template: AccountTemplate;
  id: string;
  login: BankLogin;
  /** Balance before every posted transaction the bridge has, so balances follow the transactions. */
  openingCents: number;
}

/** A transaction visible now, with the movement and account it belongs to. */
export interface Entry {
  activity: Activity;
  account: ConnectionAccount;
  transaction: SimplefinTransaction;
}

export interface ConnectionSetup {
  seed: string;
  index: number;
  now: number;
  /** Transactions over the two years of history. */
  transactionCount: number;
  orgs: 1 | 2;
  /** The user also holds a brokerage account at a third institution. */
  brokerage: boolean;
}

/**
 * One bridge user's data (the "connection" a setup token gives access to): logins at one or two
 * institutions, their accounts, and the movements that become pending and posted transactions as
 * the clock moves. Every operation takes the bridge's clock, so the user catches up on the days it
 * has not generated yet before answering.
 */
export class FakeConnection {
  readonly id: string;
  readonly logins: BankLogin[];
  readonly accounts: ConnectionAccount[];
  /** Errors the bridge reports for this user's data (`setErrors`), as v2 entries. */
  errors: BridgeError[] = [];
  /** The subscription lapsed: every data request answers 402. */
  lapsed = false;
  /** The brokerage account's cash and positions, when the user has one. */
  readonly brokerage: FakeBrokerage | null;
  readonly #seed: string;
  readonly #generator: ActivityGenerator;
  readonly #overrides = new Map<string, TransactionPatch>();
  #activities: Activity[];
  #generatedThrough: number;
  #extraSerial = 0;
  /** The last `entries` answer; any change to the movements drops it. */
  #cache: { now: number; entries: Entry[] } | null = null;

  constructor(setup: ConnectionSetup) {
    this.#seed = `${setup.seed}:${setup.index}`;
    this.id = `sfin-user-${setup.index + 1}`;
    const orgs = [...(setup.orgs === 1 ? [ORGS.bank] : [ORGS.bank, ORGS.card]), ...(setup.brokerage ? [ORGS.broker] : [])];
    this.logins = orgs.map((org) => ({ connId: `CON-${uuidFrom(this.#seed, 'login', org.key)}`, name: org.name, orgId: `ORG-${uuidFrom('org', org.key)}`, org }));
    this.brokerage = setup.brokerage ? new FakeBrokerage(this.#seed, BROKERAGE.balanceAtStart, setup.now - 400 * DAY) : null;
    this.accounts = [...ACCOUNTS, ...(setup.brokerage ? [BROKERAGE] : [])].map((template) => ({
      template,
      id: `ACT-${uuidFrom(this.#seed, 'account', template.key)}`,
      login: this.logins.find((login) => login.org.key === template.org) ?? this.logins[0]!,
      openingCents: 0,
    }));
    const today = Math.floor(setup.now / DAY);
    this.#generator = new ActivityGenerator(this.#seed, { firstDay: today - HISTORY_DAYS + 1, purchasesPerDay: Math.max(0.5, setup.transactionCount / HISTORY_DAYS - 0.3) });
    this.#activities = this.#generator.history(today, HISTORY_DAYS, setup.transactionCount);
    this.#generatedThrough = today;
    for (const account of this.accounts) account.openingCents = account.template.balanceAtStart - this.#postedCents(account, setup.now, null);
  }

  /** Every transaction visible at `now`, per account in the bridge's order (by `posted`; pending ones carry 0). */
  entries(now: number): Entry[] {
    this.#catchUp(now);
    if (this.#cache?.now === now) return this.#cache.entries;
    const entries: Entry[] = [];
    for (const activity of this.#activities) {
      const stage = stageAt(activity, now);
      if (stage !== null) entries.push({ activity, account: this.#account(activity.account), transaction: this.#render(activity, stage) });
    }
    entries.sort((a, b) => a.transaction.posted - b.transaction.posted || (a.transaction.transacted_at ?? 0) - (b.transaction.transacted_at ?? 0) || a.transaction.id.localeCompare(b.transaction.id));
    this.#cache = { now, entries };
    return entries;
  }

  /** The posted balance at `now`, or as of `asOf` (only transactions posted before it); a brokerage's is its cash and positions. */
  balanceCents(account: ConnectionAccount, now: number, asOf: number | null): number {
    if (account.template.key === 'brokerage') return this.brokerage!.balanceCents(asOf ?? now);
    return account.openingCents + this.#postedCents(account, now, asOf);
  }

  /** What the account holds at `at` (unix seconds): a brokerage's positions, nothing elsewhere. */
  holdings(account: ConnectionAccount, at: number): BridgeHolding[] {
    return account.template.key === 'brokerage' ? this.brokerage!.holdings(at) : [];
  }

  /** The posted balance less pending authorisations at `now`; for a card, the credit left. */
  availableCents(account: ConnectionAccount, now: number): number {
    const pending = this.entries(now).filter((entry) => entry.account === account && entry.transaction.pending).reduce((sum, entry) => sum + parseCents(entry.transaction.amount), 0);
    return (account.template.limit ?? 0) + this.balanceCents(account, now, null) + pending;
  }

  /** Posts a pending transaction (the oldest, or `transactionId`) now, under a new id, optionally for `amount` (a tip). */
  postPending(now: number, transactionId: string | undefined, amount: string | undefined): SimplefinTransaction {
    const pending = this.entries(now).filter((entry) => entry.transaction.pending);
    const entry = transactionId === undefined ? pending.sort((a, b) => visibleFrom(a.activity) - visibleFrom(b.activity))[0] : pending.find((candidate) => candidate.transaction.id === transactionId);
    if (!entry) throw new Error(transactionId === undefined ? `${this.id} has no pending transaction` : `${transactionId} is not a pending transaction of ${this.id}`);
    entry.activity.postedAt = now;
    if (amount !== undefined) entry.activity.cents = parseCents(amount);
    this.#cache = null;
    return this.#render(entry.activity, 'posted');
  }

  /** Re-issues the id of every transaction dated in [fromDay, toDay] (day numbers): same data, new ids. */
  reissueIds(now: number, fromDay: number, toDay: number): { oldId: string; newId: string }[] {
    const entries = this.entries(now);
    this.#cache = null;
    return entries
      .filter((entry) => {
        const day = Math.floor((entry.transaction.pending ? entry.transaction.transacted_at! : entry.transaction.posted) / DAY);
        return day >= fromDay && day <= toDay;
      })
      .map((entry) => {
        const stage = stageAt(entry.activity, now)!;
        entry.activity.generation += 1;
        const newId = transactionId(this.#seed, entry.activity, stage);
        const patch = this.#overrides.get(entry.transaction.id);
        if (patch) this.#overrides.set(newId, patch);
        return { oldId: entry.transaction.id, newId };
      });
  }

  /** `count` card purchases made at `now`; pending or posted as drawn unless `pending` says. */
  addTransactions(now: number, count: number, options: { pending?: boolean; account?: AccountKey }): SimplefinTransaction[] {
    this.#catchUp(now);
    const added = this.#generator.extra(now, count, this.#extraSerial++, options);
    this.#activities.push(...added);
    this.#cache = null;
    return added.map((activity) => this.#render(activity, stageAt(activity, now)!));
  }

  modifyTransaction(now: number, id: string, patch: TransactionPatch): SimplefinTransaction {
    const entry = this.#visible(now, id);
    if (patch.amount !== undefined) parseCents(patch.amount);
    this.#overrides.set(id, { ...this.#overrides.get(id), ...patch });
    this.#cache = null;
    return this.#render(entry.activity, stageAt(entry.activity, now)!);
  }

  /** The institution drops the transaction: a pending one never posts, a posted one disappears from the feed. */
  removeTransaction(now: number, id: string): void {
    this.#visible(now, id).activity.removed = true;
    this.#cache = null;
  }

  #postedCents(account: ConnectionAccount, now: number, asOf: number | null): number {
    return this.entries(now)
      .filter((entry) => entry.account === account && entry.transaction.pending === undefined && (asOf === null || entry.transaction.posted < asOf))
      .reduce((sum, entry) => sum + parseCents(entry.transaction.amount), 0);
  }

  #visible(now: number, id: string): Entry {
    const entry = this.entries(now).find((candidate) => candidate.transaction.id === id);
    if (!entry) throw new Error(`${this.id} has no transaction ${id}`);
    return entry;
  }

  #account(key: AccountKey): ConnectionAccount {
    return this.accounts.find((account) => account.template.key === key)!;
  }

  #catchUp(now: number) {
    const today = Math.floor(now / DAY);
    if (today <= this.#generatedThrough) return;
    for (let day = this.#generatedThrough + 1; day <= today; day++) this.#activities.push(...this.#generator.day(day));
    this.#generatedThrough = today;
    this.#cache = null;
  }

  #render(activity: Activity, stage: 'pending' | 'posted'): SimplefinTransaction {
    const { counterparty } = activity;
    const pending = stage === 'pending';
    const rendered: SimplefinTransaction = {
      id: transactionId(this.#seed, activity, stage),
      posted: pending ? 0 : activity.postedAt,
      amount: centsToDecimal(pending ? activity.pendingCents! : activity.cents),
      // The processor adds the place to a card-present purchase's description when it settles.
      description: pending || counterparty.place === null ? counterparty.descriptor : `${counterparty.descriptor} ${counterparty.place}`,
      ...(activity.transactedAt === null ? {} : { transacted_at: activity.transactedAt }),
      ...(pending ? { pending: true as const } : {}),
      payee: counterparty.payee,
      memo: '',
      mcc: counterparty.mcc,
    };
    return { ...rendered, ...this.#overrides.get(rendered.id) };
  }
}

function stageAt(activity: Activity, now: number): 'pending' | 'posted' | null {
  if (activity.removed || visibleFrom(activity) > now) return null;
  if (activity.postedAt <= now) return 'posted';
  return activity.pendingCents === null ? null : 'pending';
}

/** Pending and posted ids are unrelated, and change with the movement's generation. */
function transactionId(seed: string, activity: Activity, stage: 'pending' | 'posted'): string {
  return `TRN-${uuidFrom(seed, activity.key, stage, activity.generation)}`;
}
