import { Household, type AccountRole, type Movement } from '../../../src/providers/sandbox/household.ts';
import type { Counterparty } from '../../../src/providers/sandbox/merchants.ts';
import type { AccountKey } from './catalog.ts';

export { HISTORY_DAYS } from '../../../src/providers/sandbox/household.ts';

export const DAY = 86_400;
const HOUR = 3_600;

/** Who is on the other side of a movement, as the bridge describes it. */
export interface Payee {
  /** The clean name the bridge adds (`payee`, version 2). */
  payee: string;
  /** The institution's description. */
  descriptor: string;
  mcc: string | null;
  /** Appended to the description once a card-present purchase settles (the processor adds the place). */
  place: string | null;
}

/**
 * One movement of the synthetic household as the bridge shows it, in unix seconds and cents with
 * SimpleFIN's sign (positive = money into the account). A card authorisation is pending from
 * `transactedAt` until `postedAt`, then posts under a new id, for `cents` (a tip makes it differ
 * from `pendingCents`).
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
  counterparty: Payee;
  /** Bumped when the institution re-issues ids: every id of the movement changes. */
  generation: number;
  removed: boolean;
}

/** The moment a movement first becomes visible (pending or posted). */
export const visibleFrom = (activity: Activity) => activity.transactedAt ?? activity.postedAt;

/** Where the household's accounts are at the bridge's institutions. */
const ACCOUNT_OF: Partial<Record<AccountRole, AccountKey>> = { checking: 'checking', savings: 'savings', card: 'card' };

/** A user's household, rendered for the bridge; every draw derives from the seed and the day, never from when it is asked. */
export class ActivityGenerator {
  readonly #household: Household;

  constructor(seed: string, options: { firstDay: number; purchasesPerDay: number }) {
    this.#household = new Household(seed, { accounts: Object.keys(ACCOUNT_OF) as AccountRole[], ...options });
  }

  /** Exactly `count` movements over the `days` up to `today` (a day number). */
  history(today: number, days: number, count: number): Activity[] {
    return this.#household.history(today - days + 1, today, count).map(toActivity);
  }

  /** What happens on one day after the user was created. */
  day(day: number): Activity[] {
    return this.#household.on(day).map(toActivity);
  }

  /** Card purchases a test makes, a minute apart up to `now` (`addTransactions`), keyed so they never collide with generated ones. */
  extra(now: number, count: number, serial: number, options: { pending?: boolean; account?: AccountKey }): Activity[] {
    const day = Math.floor(now / DAY);
    return this.#household.extra(day, count, serial, options.account).map((movement, i) => {
      const drawn = toActivity(movement);
      const authorized = drawn.pendingCents ?? drawn.cents;
      const transactedAt = now - (count - 1 - i) * 60;
      const activity = { ...drawn, transactedAt };
      if (options.pending === false || (options.pending === undefined && drawn.pendingCents === null)) return { ...activity, postedAt: transactedAt, pendingCents: null };
      return { ...activity, pendingCents: authorized, postedAt: Math.max(drawn.postedAt, (day + 1) * DAY + 4 * HOUR) };
    });
  }
}

function toActivity(movement: Movement): Activity {
  const { counterparty } = movement;
  const transactedAt = counterparty.channel === 'other' ? null : movement.day * DAY + movement.secondOfDay;
  // A purchase that waits settles in the early hours of its posting day; anything else posts as it happens.
  const postedAt = movement.pendingCents === null ? movement.day * DAY + movement.secondOfDay : movement.postDay * DAY + 3 * HOUR + (movement.secondOfDay % (5 * HOUR));
  return {
    key: movement.key,
    account: ACCOUNT_OF[movement.account]!,
    transactedAt,
    postedAt,
    pendingCents: movement.pendingCents,
    cents: movement.cents,
    counterparty: payeeOf(counterparty),
    generation: 0,
    removed: false,
  };
}

function payeeOf(counterparty: Counterparty): Payee {
  const { store } = counterparty;
  return { payee: counterparty.name, descriptor: counterparty.descriptor, mcc: counterparty.mcc, place: store && `${store.city.toUpperCase()} ${store.region}` };
}
