import { between, pick, randomFor } from '../plaid/random.ts';
import { FLOWS, MERCHANTS, type AccountKey, type Counterparty } from './catalog.ts';

export const DAY = 86_400;
const HOUR = 3_600;

/** How far back a new user's history reaches. */
export const HISTORY_DAYS = 730;

/**
 * One money movement at the institution, in unix seconds and cents with SimpleFIN's sign (positive =
 * money into the account). A card authorisation is pending from `transactedAt` until `postedAt`,
 * then posts under a new id, for `cents` (a tip makes it differ from `pendingCents`).
 */
export interface Activity {
  /** Unique within the user; transaction ids derive from it. */
  key: string;
  account: AccountKey;
  /** When the card was used; null for ACH and transfers, which the bridge reports without it. */
  transactedAt: number | null;
  postedAt: number;
  /** Amount shown while pending; null when the movement posts without a pending phase. */
  pendingCents: number | null;
  cents: number;
  counterparty: Counterparty;
  /** Bumped when the institution re-issues ids: every id of the movement changes. */
  generation: number;
  removed: boolean;
}

/** The moment a movement first becomes visible (pending or posted). */
export const visibleFrom = (activity: Activity) => activity.transactedAt ?? activity.postedAt;

/** Generates a user's activity; every draw derives from the seed and the day, never from when it is asked. */
export class ActivityGenerator {
  readonly #seed: string;

  constructor(seed: string) {
    this.#seed = seed;
  }

  /** Exactly `count` movements over the `days` up to `today` (a day number): scheduled flows first, purchases fill the rest. */
  history(today: number, days: number, count: number): Activity[] {
    const first = today - days + 1;
    const scheduled: Activity[] = [];
    for (let day = first; day <= today; day++) scheduled.push(...this.#scheduledOn(day));
    const random = randomFor(`${this.#seed}:history`);
    const purchases = Array.from({ length: Math.max(0, count - scheduled.length) }, (_, i) => this.#purchase(random, `h${i}`, first + Math.floor(random() * days)));
    return [...scheduled.slice(0, count), ...purchases];
  }

  /** What happens on one day after the user was created: scheduled flows and about `purchasesPerDay` purchases. */
  day(day: number, purchasesPerDay: number): Activity[] {
    const random = randomFor(`${this.#seed}:day:${day}`);
    const purchases = between(random, 0, Math.max(1, Math.round(2 * purchasesPerDay)));
    return [...this.#scheduledOn(day), ...Array.from({ length: purchases }, (_, i) => this.#purchase(random, `d${day}-${i}`, day))];
  }

  /** Card purchases a test makes, a minute apart up to `now` (`addTransactions`), keyed so they never collide with generated ones. */
  extra(now: number, count: number, serial: number, options: { pending?: boolean; account?: AccountKey }): Activity[] {
    const random = randomFor(`${this.#seed}:extra:${serial}`);
    const day = Math.floor(now / DAY);
    return Array.from({ length: count }, (_, i) => {
      const drawn = this.#purchase(random, `x${serial}-${i}`, day, options.account);
      const authorized = drawn.pendingCents ?? drawn.cents;
      const transactedAt = now - (count - 1 - i) * 60;
      const activity = { ...drawn, transactedAt };
      if (options.pending === false || (options.pending === undefined && drawn.pendingCents === null)) return { ...activity, postedAt: transactedAt, pendingCents: null };
      return { ...activity, pendingCents: authorized, postedAt: Math.max(drawn.postedAt, (day + 1) * DAY + 4 * HOUR) };
    });
  }

  #scheduledOn(day: number): Activity[] {
    const date = new Date(day * DAY * 1000);
    const dayOfMonth = date.getUTCDate();
    const lastDayOfMonth = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
    const random = randomFor(`${this.#seed}:flows:${day}`);
    const flows: Activity[] = [];
    const add = (account: AccountKey, cents: number, counterparty: Counterparty, name: string) =>
      flows.push({ key: `f${day}-${name}`, account, transactedAt: null, postedAt: day * DAY + between(random, HOUR, 6 * HOUR), pendingCents: null, cents, counterparty, generation: 0, removed: false });
    if (day % 14 === 4) add('checking', between(random, 2_950_00, 3_150_00), FLOWS.payroll, 'payroll');
    if (dayOfMonth === 1) add('checking', -1_650_00, FLOWS.rent, 'rent');
    if (dayOfMonth === 5) {
      add('checking', -500_00, FLOWS.toSavings, 'to-savings');
      add('savings', 500_00, FLOWS.fromChecking, 'from-checking');
    }
    if (dayOfMonth === 8) add('checking', -between(random, 60_00, 140_00), FLOWS.utilities, 'utilities');
    if (dayOfMonth === 20) {
      const payment = between(random, 2_000_00, 2_600_00);
      add('checking', -payment, FLOWS.cardPayment, 'card-payment');
      add('card', payment, FLOWS.cardPaymentReceived, 'card-payment-received');
    }
    if (dayOfMonth === lastDayOfMonth) add('savings', between(random, 55_00, 80_00), FLOWS.interest, 'interest');
    return flows;
  }

  #purchase(random: () => number, key: string, day: number, account?: AccountKey): Activity {
    const merchant = pick(random, MERCHANTS);
    const authorized = between(random, merchant.cents[0], merchant.cents[1]);
    const transactedAt = day * DAY + between(random, 7 * HOUR, 23 * HOUR);
    const on: AccountKey = account ?? (random() < 0.72 ? 'card' : 'checking');
    const base = { key, account: on, transactedAt, counterparty: merchant, generation: 0, removed: false };
    // A refund: money back into the account, settled directly.
    if (random() < 0.03) return { ...base, postedAt: transactedAt, pendingCents: null, cents: authorized };
    const lag = random() < 0.1 ? 0 : between(random, 1, 3);
    // A restaurant settles with the tip added: the posted amount differs from the authorisation.
    const tip = merchant.tipped ? Math.round(authorized * (0.15 + random() * 0.07)) : 0;
    if (lag === 0) return { ...base, postedAt: transactedAt, pendingCents: null, cents: -(authorized + tip) };
    return { ...base, postedAt: (day + lag) * DAY + between(random, 3 * HOUR, 8 * HOUR), pendingCents: -authorized, cents: -(authorized + tip) };
  }
}
