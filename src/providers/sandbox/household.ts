import { FLOWS, merchantsOf, type Counterparty, type Merchant, type SpendingGroup } from './merchants.ts';
import { between, pick, randomFor } from './random.ts';
import { DAY_MS } from '../../lib/dates.ts';

/** How far back a new connection's history reaches (the sandbox's default, Plaid's maximum, SimpleFIN's two years). */
export const HISTORY_DAYS = 730;

/** The accounts a household may hold; an institution reports the movements of those it holds. */
export type AccountRole = 'checking' | 'savings' | 'card' | 'loan' | 'student' | 'brokerage' | 'retirement';

/** A loan's monthly payment, the interest charged with it, and its day of the month. */
export interface LoanTerms {
  paymentCents: number;
  interestCents: number;
  dayOfMonth: number;
}

/** What becomes of a posted movement: the sandbox shows it; the fakes leave such changes to their test controls. */
export type Fate = 'posts' | 'dropped' | 'corrected' | 'reversed';

/**
 * One money movement of the household, in integer cents from the account holder's side (positive =
 * money into the account). A card purchase is authorised on `day` (pending, for `pendingCents`) and
 * settles on `postDay` for `cents`, which adds the tip at a restaurant; everything else posts on `day`.
 */
export interface Movement {
  /** Unique within the household: every wire format's ids derive from it. */
  key: string;
  account: AccountRole;
  /** Days since the Unix epoch. */
  day: number;
  postDay: number;
  /** Seconds after midnight (UTC) of `day`. */
  secondOfDay: number;
  pendingCents: number | null;
  cents: number;
  counterparty: Counterparty;
  fate: Fate;
  /** A purchase made in another currency: its amount there, in that currency's cents (same sign as `cents`). */
  original?: { cents: number; currencyCode: string };
}

export interface HouseholdOptions {
  /** The accounts held at the institution: movements on any other are not reported. */
  accounts: readonly AccountRole[];
  /** First day of the history: the first card statement counts purchases from then on. */
  firstDay: number;
  /** Purchases a day on average; the default is a household's everyday spending (about 1.7). */
  purchasesPerDay?: number;
  /** The card also pays for a few purchases abroad, in EUR (see `#abroadOn`). */
  spendsAbroad?: boolean;
}

/** How often a household buys from each group (purchases a day) and which account pays. */
const SPENDING: Record<SpendingGroup, { perDay: number; account: 'checking' | 'card' }> = {
  groceries: { perDay: 0.35, account: 'checking' },
  coffee: { perDay: 0.4, account: 'checking' },
  restaurants: { perDay: 0.3, account: 'card' },
  shopping: { perDay: 0.25, account: 'card' },
  transport: { perDay: 0.3, account: 'card' },
  health: { perDay: 0.05, account: 'card' },
  travel: { perDay: 0.01, account: 'card' },
};
const GROUPS = Object.keys(SPENDING) as SpendingGroup[];
const EVERYDAY_PURCHASES = GROUPS.reduce((sum, group) => sum + SPENDING[group].perDay, 0);
/** Days of a 30-day cycle with a purchase abroad (a trip at the start of each month or so). */
const ABROAD_DAYS = new Set([3, 4, 5]);
/** USD a EUR bought on a day: between these, fixed per day. */
const EUR_IN_USD = [1.04, 1.12] as const;
/** Restaurants settle with a tip of 15–22 % of the authorisation. */
const TIP = [0.15, 0.22] as const;
const DAYS_PER_MONTH = 365.25 / 12;
/** Days of the month the loans are paid, and the card (its last month's charges). */
const LOAN_PAYMENT_DAY = 5;
const STUDENT_LOAN_DAY = 25;
export const CARD_PAYMENT_DAY = 20;
const PAYCHECKS_PER_MONTH = 365.25 / 14 / 12;

const meanCents = (merchants: readonly Merchant[]) =>
  merchants.reduce((sum, shop) => sum + ((shop.cents[0] + shop.cents[1]) / 2) * (shop.tipped ? 1 + (TIP[0] + TIP[1]) / 2 : 1), 0) / merchants.length;

/** Per-household constants: pay, rent and payments stay the same month after month. */
interface Profile {
  rent: number;
  savingsTransfer: number;
  loanPayment: number;
  loanInterest: number;
  studentPayment: number;
  studentInterest: number;
  contribution: number;
  retirement: number;
  /** What pay must cover beyond the month's outflows, as a fraction of them. */
  margin: number;
}

/**
 * A synthetic household, deterministic from its seed: fortnightly pay, rent, utilities and
 * subscriptions, everyday purchases (some pending, some tipped, a few refunded, dropped, corrected or
 * reversed), a monthly transfer to savings, loan and card payments (the card is paid in full for the
 * last calendar month), contributions, dividends and interest. Pay covers the month's outflows with a
 * margin, and checking opens with about a month of them, so checking stays in credit and savings grow.
 * The sandbox and the Plaid and SimpleFIN fakes render it in their own wire formats.
 */
export class Household {
  readonly #seed: string;
  readonly #holds: ReadonlySet<AccountRole>;
  readonly #firstDay: number;
  /** How many times the everyday rate a purchase group is bought at. */
  readonly #intensity: number;
  readonly #profile: Profile;
  readonly #purchases = new Map<number, Movement[]>();
  readonly #spendsAbroad: boolean;
  /** What leaves checking in an average month: rent, bills, payments, the savings transfer and the purchases it pays for. */
  readonly monthlyOutflow: number;
  /** One fortnightly paycheck: the month's outflows plus the household's margin, spread over the paychecks. */
  readonly #paycheck: number;

  constructor(seed: string, options: HouseholdOptions) {
    this.#seed = seed;
    this.#holds = new Set(options.accounts);
    this.#firstDay = options.firstDay;
    this.#intensity = (options.purchasesPerDay ?? EVERYDAY_PURCHASES) / EVERYDAY_PURCHASES;
    this.#spendsAbroad = options.spendsAbroad ?? false;
    const random = randomFor(`${seed}:profile`);
    const loanPayment = between(random, 250_00, 1_900_00);
    this.#profile = {
      rent: between(random, 1_400_00, 2_400_00),
      savingsTransfer: between(random, 200_00, 600_00),
      loanPayment,
      loanInterest: Math.round(loanPayment * (0.2 + random() * 0.4)),
      contribution: between(random, 200_00, 800_00),
      retirement: between(random, 150_00, 500_00),
      margin: 0.01 + random() * 0.03,
      // Drawn from their own stream, so the other accounts' movements stay what they were before student loans.
      ...studentLoanOf(randomFor(`${seed}:student`)),
    };
    this.monthlyOutflow = this.#averageOutflow();
    this.#paycheck = Math.round((this.monthlyOutflow * (1 + this.#profile.margin)) / PAYCHECKS_PER_MONTH);
  }

  /** Each account's balance before the history starts, in the holder's sign (owed is negative). */
  opening(account: AccountRole): number {
    const random = randomFor(`${this.#seed}:${account}:opening`);
    switch (account) {
      case 'checking':
        return Math.round(this.monthlyOutflow * (1 + random() / 2));
      case 'savings':
        return between(random, 5_000_00, 20_000_00);
      case 'card':
        return -between(random, 300_00, 2_000_00);
      case 'loan':
        return -between(random, 15_000_00, 350_000_00);
      case 'student':
        return -between(random, 8_000_00, 60_000_00);
      case 'brokerage':
        return between(random, 20_000_00, 80_000_00);
      case 'retirement':
        return between(random, 50_000_00, 150_000_00);
    }
  }

  /** First day of the history. */
  get firstDay(): number {
    return this.#firstDay;
  }

  /** The monthly payment of a loan and the interest charged with it, both positive. */
  loanTerms(account: 'loan' | 'student'): LoanTerms {
    const { loanPayment, loanInterest, studentPayment, studentInterest } = this.#profile;
    return account === 'loan' ? { paymentCents: loanPayment, interestCents: loanInterest, dayOfMonth: LOAN_PAYMENT_DAY } : { paymentCents: studentPayment, interestCents: studentInterest, dayOfMonth: STUDENT_LOAN_DAY };
  }

  /**
   * The card's credit limit in cents (positive): drawn between $5,000 and $15,000, and never below
   * what the card can owe, as an issuer sets it. The card owes its opening balance (up to $2,000)
   * plus a cycle's purchases until the statement is paid and the next cycle's meanwhile: three
   * months of average purchases leaves room for a heavy month.
   */
  get creditLimit(): number {
    const drawn = between(randomFor(`${this.#seed}:card:limit`), 50, 150) * 100_00;
    const owedAtMost = 2_000_00 + 3 * this.#averageCardSpend();
    return Math.max(drawn, Math.ceil(owedAtMost / 1_000_00) * 1_000_00);
  }

  /** The card's average purchases a month, in cents (positive). */
  #averageCardSpend(): number {
    let daily = 0;
    for (const group of GROUPS) if (SPENDING[group].account === 'card') daily += SPENDING[group].perDay * this.#intensity * meanCents(merchantsOf(group));
    return Math.round(daily * DAYS_PER_MONTH + meanCents(merchantsOf('subscription')) * 2 + this.#abroadMonthly());
  }

  /** The card's purchases abroad in an average month, in USD cents (positive); none for a household that stays home. */
  #abroadMonthly(): number {
    return this.#spendsAbroad ? Math.round(ABROAD_DAYS.size * meanCents(merchantsOf('abroad')) * EUR_IN_USD[1]) : 0;
  }

  /** Every movement on `day` on the accounts held: the scheduled ones, then the day's purchases. */
  on(day: number): Movement[] {
    return [...this.#scheduledOn(day), ...this.#purchasesOn(day), ...this.#abroadOn(day)];
  }

  /**
   * A card purchase abroad on a few days of each 30-day cycle, in EUR, settled in USD at the day's
   * rate; drawn from a stream of its own, so the household's other movements stay what they were.
   */
  #abroadOn(day: number): Movement[] {
    if (!this.#spendsAbroad || !this.#holds.has('card') || !ABROAD_DAYS.has(day % 30)) return [];
    const random = randomFor(`${this.#seed}:abroad:${day}`);
    const shop = pick(random, merchantsOf('abroad'));
    const euros = between(random, shop.cents[0], shop.cents[1]);
    const rate = EUR_IN_USD[0] + random() * (EUR_IN_USD[1] - EUR_IN_USD[0]);
    const secondOfDay = between(random, 9 * 3_600, 22 * 3_600);
    const cents = -Math.round(euros * rate);
    return [{ key: `a${day}`, account: 'card', day, postDay: day, secondOfDay, pendingCents: null, cents, counterparty: shop, fate: 'posts', original: { cents: -euros, currencyCode: 'EUR' } }];
  }

  /**
   * Exactly `count` movements over the days `first`–`today` (the fakes' history of a configured size):
   * the scheduled ones first, then the days' purchases, thinned or topped up with purchases on random
   * days to make the count. Sorted by day.
   */
  history(first: number, today: number, count: number): Movement[] {
    const scheduled: Movement[] = [];
    const purchases: Movement[] = [];
    for (let day = first; day <= today; day++) {
      scheduled.push(...this.#scheduledOn(day));
      purchases.push(...this.#purchasesOn(day));
    }
    const wanted = Math.max(0, count - scheduled.length);
    const random = randomFor(`${this.#seed}:history`);
    while (purchases.length > wanted) purchases.splice(Math.floor(random() * purchases.length), 1);
    for (let i = 0; purchases.length < wanted; i++) {
      const day = between(random, first, today);
      const group = pick(random, GROUPS);
      purchases.push(this.#purchase(random, `h${i}`, day, group, SPENDING[group].account));
    }
    return [...scheduled.slice(0, count), ...purchases].sort((a, b) => a.day - b.day);
  }

  /** `count` purchases made on `day` at any merchant, on `account` or the one their group is paid from; keyed by `serial` so they never collide. */
  extra(day: number, count: number, serial: number, account?: AccountRole): Movement[] {
    const random = randomFor(`${this.#seed}:extra:${serial}`);
    return Array.from({ length: count }, (_, i) => {
      const group = pick(random, GROUPS);
      return this.#purchase(random, `x${serial}-${i}`, day, group, account ?? SPENDING[group].account);
    });
  }

  #averageOutflow(): number {
    const profile = this.#profile;
    let daily = 0;
    for (const group of GROUPS) if (this.#holds.has(SPENDING[group].account)) daily += SPENDING[group].perDay * this.#intensity * meanCents(merchantsOf(group));
    const bills = meanCents(merchantsOf('utility')) + (this.#holds.has('card') ? meanCents(merchantsOf('subscription')) * 2 + this.#abroadMonthly() : 0);
    const transfers = (this.#holds.has('savings') ? profile.savingsTransfer : 0) + (this.#holds.has('loan') ? profile.loanPayment : 0);
    return Math.round(daily * DAYS_PER_MONTH + profile.rent + bills + transfers);
  }

  #scheduledOn(day: number): Movement[] {
    const profile = this.#profile;
    const date = new Date(day * DAY_MS);
    const dom = date.getUTCDate();
    const lastOfMonth = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
    const random = randomFor(`${this.#seed}:flows:${day}`);
    const out: Movement[] = [];
    const move = (account: AccountRole, name: string, cents: number, counterparty: Counterparty) => {
      const secondOfDay = between(random, 3_600, 6 * 3_600);
      if (this.#holds.has(account)) out.push({ key: `f${day}-${name}`, account, day, postDay: day, secondOfDay, pendingCents: null, cents, counterparty, fate: 'posts' });
    };
    if (day % 14 === 1) {
      move('checking', 'payroll', this.#paycheck, FLOWS.payroll);
      move('retirement', 'retirement', profile.retirement, FLOWS.retirement);
    }
    if (dom === 1) move('checking', 'rent', -profile.rent, FLOWS.rent);
    if (dom === 2 && this.#holds.has('savings')) {
      move('checking', 'to-savings', -profile.savingsTransfer, FLOWS.toSavings);
      move('savings', 'from-checking', profile.savingsTransfer, FLOWS.fromChecking);
    }
    if (dom === 3) move('brokerage', 'contribution', profile.contribution, FLOWS.contribution);
    if (dom === LOAN_PAYMENT_DAY && this.#holds.has('loan')) {
      move('checking', 'loan-payment', -profile.loanPayment, FLOWS.loanPayment);
      move('loan', 'loan-payment-received', profile.loanPayment, FLOWS.loanPaymentReceived);
      move('loan', 'loan-interest', -profile.loanInterest, FLOWS.loanInterest);
    }
    if (dom === 15 && date.getUTCMonth() % 3 === 2) move('brokerage', 'dividend', between(random, 20_00, 300_00), FLOWS.dividend);
    const statement = dom === CARD_PAYMENT_DAY && this.#holds.has('card') ? this.#statement(day) : 0;
    if (statement > 0) {
      move('checking', 'card-payment', -statement, FLOWS.cardPayment);
      move('card', 'card-payment-received', statement, FLOWS.cardPaymentReceived);
    }
    if (dom === lastOfMonth) move('savings', 'interest', between(random, 1_00, 9_00), FLOWS.savingsInterest);
    if (dom === STUDENT_LOAN_DAY && this.#holds.has('student')) {
      move('student', 'student-payment-received', profile.studentPayment, FLOWS.loanPaymentReceived);
      move('student', 'student-interest', -profile.studentInterest, FLOWS.loanInterest);
    }
    return out;
  }

  /** The day's purchases: bills and subscriptions on their days, and everyday purchases at the household's rate. */
  #purchasesOn(day: number): Movement[] {
    let out = this.#purchases.get(day);
    if (out) return out;
    out = [];
    const random = randomFor(`${this.#seed}:day:${day}`);
    const dom = new Date(day * DAY_MS).getUTCDate();
    const buy = (group: Merchant['group'], account: AccountRole, merchant?: Merchant) => {
      const movement = this.#purchase(random, `d${day}-${out!.length}`, day, group, account, merchant);
      if (this.#holds.has(movement.account)) out!.push(movement);
    };
    const [netflix, spotify] = merchantsOf('subscription');
    if (dom === 8) buy('subscription', 'card', netflix);
    if (dom === 12) buy('utility', 'checking');
    if (dom === 15) buy('subscription', 'card', spotify);
    for (const group of GROUPS) {
      const rate = SPENDING[group].perDay * this.#intensity;
      const count = Math.floor(rate) + (random() < rate % 1 ? 1 : 0);
      for (let i = 0; i < count; i++) buy(group, SPENDING[group].account);
    }
    this.#purchases.set(day, out);
    return out;
  }

  /** One purchase from `group` (or at `merchant`), paid from `account`. */
  #purchase(random: () => number, key: string, day: number, group: Merchant['group'], account: AccountRole, merchant?: Merchant): Movement {
    const shop = merchant ?? pick(random, merchantsOf(group));
    const authorised = between(random, shop.cents[0], shop.cents[1]);
    const secondOfDay = between(random, 7 * 3_600, 23 * 3_600);
    const base = { key, account, day, secondOfDay, counterparty: shop };
    // A return to a shop: money back into the account, settled directly.
    if (group === 'shopping' && random() < 0.06) return { ...base, postDay: day, pendingCents: null, cents: authorised, fate: 'posts' };
    const lag = random() < 0.1 ? 0 : between(random, 1, 3);
    const tip = shop.tipped ? Math.round(authorised * (TIP[0] + random() * (TIP[1] - TIP[0]))) : 0;
    const roll = random();
    const fate: Fate = lag > 0 && roll < 0.03 ? 'dropped' : roll < 0.05 ? 'corrected' : roll < 0.055 ? 'reversed' : 'posts';
    return { ...base, postDay: day + lag, pendingCents: lag === 0 ? null : -authorised, cents: -(authorised + tip), fate };
  }

  /** What the card was charged during the calendar month before `day`'s (within the history): the payment due. */
  #statement(day: number): number {
    const date = new Date(day * DAY_MS);
    const first = Math.max(this.#firstDay, dayOf(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - 1, 1)));
    const last = dayOf(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1)) - 1;
    let charged = 0;
    for (let d = first; d <= last; d++) {
      for (const movement of [...this.#purchasesOn(d), ...this.#abroadOn(d)]) {
        if (movement.account === 'card' && movement.fate !== 'dropped' && movement.fate !== 'reversed') charged -= movement.cents;
      }
    }
    return Math.max(0, charged);
  }
}

function studentLoanOf(random: () => number): { studentPayment: number; studentInterest: number } {
  const studentPayment = between(random, 150_00, 600_00);
  return { studentPayment, studentInterest: Math.round(studentPayment * (0.25 + random() * 0.35)) };
}

export function dayOf(time: number): number {
  return Math.floor(time / DAY_MS);
}

const ISO_DAYS = new Map<number, string>();

/** `YYYY-MM-DD` of a day number (memoised: history rendering asks for the same days again and again). */
export function isoDay(day: number): string {
  let iso = ISO_DAYS.get(day);
  if (iso === undefined) {
    iso = new Date(day * DAY_MS).toISOString().slice(0, 10);
    ISO_DAYS.set(day, iso);
  }
  return iso;
}
