import { Household, type AccountRole, type Movement } from '../../../src/providers/sandbox/household.ts';
import type { Counterparty } from '../../../src/providers/sandbox/merchants.ts';
import type { AccountKey } from './catalog.ts';

export { HISTORY_DAYS } from '../../../src/providers/sandbox/household.ts';

/**
 * One movement of the synthetic household as this Item's institution shows it. It becomes visible on
 * `authorizedDay`: first as a pending transaction when `pendingCents` is set (card authorisations),
 * then posted on `postDay` under a new id. Amounts are integer cents in Plaid's sign convention:
 * positive = money out of the account.
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

/** Where the household's accounts are at a Plaid Sandbox institution. */
const ACCOUNT_OF: Partial<Record<AccountRole, AccountKey>> = { checking: 'checking', savings: 'savings', card: 'credit', loan: 'student' };
const ROLE_OF = Object.fromEntries(Object.entries(ACCOUNT_OF).map(([role, key]) => [key, role])) as Record<AccountKey, AccountRole>;

/** The household of an Item, rendered in Plaid's accounts and signs; every draw derives from `seed` and the Item's index. */
export class ActivityGenerator {
  readonly #household: Household;

  constructor(seed: string, itemIndex: number, options: { firstDay: number; purchasesPerDay: number }) {
    this.#household = new Household(`${seed}:${itemIndex}`, { accounts: Object.keys(ACCOUNT_OF) as AccountRole[], ...options });
  }

  /** Exactly `count` movements over the `days` up to `today`, sorted by day. */
  history(today: number, days: number, count: number): Activity[] {
    return this.#household.history(today - days + 1, today, count).map(toActivity);
  }

  /** What happens at the institution on one day after the link. */
  day(day: number): Activity[] {
    return this.#household.on(day).map(toActivity);
  }

  /**
   * Card purchases made on `day` by a test (`addTransactions`), keyed so they never collide with
   * generated ones. An account the household does not hold (one a test opened) gets purchases drawn
   * as the checking account's.
   */
  extra(day: number, count: number, serial: number, options: { pending?: boolean; account?: AccountKey }): Activity[] {
    const role = options.account && (ROLE_OF[options.account] ?? 'checking');
    const movements = this.#household.extra(day, count, serial, role);
    return movements.map(toActivity).map((drawn) => {
      const activity = options.account ? { ...drawn, account: options.account } : drawn;
      if (options.pending === false) return { ...activity, postDay: day, pendingCents: null };
      if (options.pending === true && activity.pendingCents === null) return { ...activity, postDay: day + 2, pendingCents: activity.cents };
      return activity;
    });
  }
}

function toActivity(movement: Movement): Activity {
  return {
    key: movement.key,
    account: ACCOUNT_OF[movement.account]!,
    authorizedDay: movement.day,
    postDay: movement.postDay,
    pendingCents: movement.pendingCents === null ? null : -movement.pendingCents,
    cents: -movement.cents,
    counterparty: movement.counterparty,
    secondOfDay: movement.secondOfDay,
  };
}
