import { FLOWS, MERCHANTS, type AccountKey, type Counterparty } from './catalog.ts';
import { between, DAY_MS, pick, randomFor } from './random.ts';

/** How far back a new Item's history reaches unless `days_requested` says less (Plaid's maximum). */
export const HISTORY_DAYS = 730;

/**
 * One money movement at the institution. It becomes visible on `authorizedDay`: first as a pending
 * transaction when `pendingCents` is set (card authorisations), then posted on `postDay` under a new
 * id. Amounts are integer cents in Plaid's sign convention: positive = money out of the account.
 */
export interface Activity {
  /** Unique within the Item; transaction ids derive from it. */
  key: string;
  account: AccountKey;
  authorizedDay: number;
  postDay: number;
  pendingCents: number | null;
  cents: number;
  counterparty: Counterparty;
  secondOfDay: number;
}

/** Generates an Item's activity; every draw derives from `seed`, the Item's index and the day. */
export class ActivityGenerator {
  readonly #seed: string;

  constructor(seed: string, itemIndex: number) {
    this.#seed = `${seed}:${itemIndex}`;
  }

  /**
   * Exactly `count` movements over the `days` up to `today` (scheduled flows first, card purchases
   * fill the rest), sorted by day.
   */
  history(today: number, days: number, count: number): Activity[] {
    const first = today - days + 1;
    const scheduled: Activity[] = [];
    for (let day = first; day <= today; day++) scheduled.push(...this.#scheduledOn(day));
    const random = randomFor(`${this.#seed}:history`);
    const purchases = Array.from({ length: Math.max(0, count - scheduled.length) }, (_, i) => this.#purchase(random, `h${i}`, first + Math.floor(random() * days)));
    return [...scheduled.slice(0, count), ...purchases].sort((a, b) => a.authorizedDay - b.authorizedDay);
  }

  /** What happens at the institution on one day after the link: scheduled flows and about `purchasesPerDay` purchases. */
  day(day: number, purchasesPerDay: number): Activity[] {
    const random = randomFor(`${this.#seed}:day:${day}`);
    const purchases = between(random, 0, Math.max(1, Math.round(2 * purchasesPerDay)));
    return [...this.#scheduledOn(day), ...Array.from({ length: purchases }, (_, i) => this.#purchase(random, `d${day}-${i}`, day))];
  }

  /** Card purchases made on `day` by a test (`addTransactions`), keyed so they never collide with generated ones. */
  extra(day: number, count: number, serial: number, options: { pending?: boolean; account?: AccountKey }): Activity[] {
    const random = randomFor(`${this.#seed}:extra:${serial}`);
    return Array.from({ length: count }, (_, i) => {
      const activity = this.#purchase(random, `x${serial}-${i}`, day, options.account);
      if (options.pending === false) return { ...activity, postDay: day, pendingCents: null };
      if (options.pending === true && activity.pendingCents === null) return { ...activity, postDay: day + 2, pendingCents: activity.cents };
      return activity;
    });
  }

  #scheduledOn(day: number): Activity[] {
    const date = new Date(day * DAY_MS);
    const dayOfMonth = date.getUTCDate();
    const lastDayOfMonth = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
    const random = randomFor(`${this.#seed}:flows:${day}`);
    const flows: Activity[] = [];
    const add = (account: AccountKey, cents: number, counterparty: Counterparty, name: string) =>
      flows.push({ key: `f${day}-${name}`, account, authorizedDay: day, postDay: day, pendingCents: null, cents, counterparty, secondOfDay: between(random, 3600, 7 * 3600) });
    if (day % 14 === 4) add('checking', -between(random, 2_450_00, 2_650_00), FLOWS.payroll, 'payroll');
    if (dayOfMonth === 1) add('checking', 1_850_00, FLOWS.rent, 'rent');
    if (dayOfMonth === 5) {
      add('checking', 500_00, FLOWS.toSavings, 'to-savings');
      add('savings', -500_00, FLOWS.fromChecking, 'from-checking');
    }
    if (dayOfMonth === 8) add('checking', between(random, 60_00, 140_00), FLOWS.utilities, 'utilities');
    if (dayOfMonth === 15) {
      add('checking', 250_00, FLOWS.loanPayment, 'loan-payment');
      add('student', -250_00, FLOWS.loanPaymentReceived, 'loan-payment-received');
    }
    if (dayOfMonth === 20) {
      const payment = between(random, 900_00, 1_500_00);
      add('checking', payment, FLOWS.cardPayment, 'card-payment');
      add('credit', -payment, FLOWS.cardPaymentReceived, 'card-payment-received');
    }
    if (dayOfMonth === lastDayOfMonth) add('savings', -between(random, 1_00, 3_00), FLOWS.interest, 'interest');
    return flows;
  }

  #purchase(random: () => number, key: string, day: number, account?: AccountKey): Activity {
    const merchant = pick(random, MERCHANTS);
    const authorized = between(random, merchant.cents[0], merchant.cents[1]);
    const secondOfDay = between(random, 7 * 3600, 23 * 3600);
    const on: AccountKey = account ?? (random() < 0.72 ? 'credit' : 'checking');
    if (random() < 0.03) {
      // A refund: money back into the account, settled directly.
      return { key, account: on, authorizedDay: day, postDay: day, pendingCents: null, cents: -authorized, counterparty: merchant, secondOfDay };
    }
    const lag = random() < 0.1 ? 0 : between(random, 1, 3);
    // A tip is added when a restaurant settles: the posted amount differs from the authorisation.
    const tip = merchant.tipped ? Math.round(authorized * (0.15 + random() * 0.07)) : 0;
    return { key, account: on, authorizedDay: day, postDay: day + lag, pendingCents: lag === 0 ? null : authorized, cents: authorized + tip, counterparty: merchant, secondOfDay };
  }
}
