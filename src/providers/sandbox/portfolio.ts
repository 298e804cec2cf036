import type { InvestmentTransactionType } from '../provider-investments.ts';
import { DAY_MS } from '../../lib/dates.ts';
import type { Household } from './household.ts';
import { FLOWS } from './merchants.ts';
import { shareOf, unitsFor, valueCents } from './money.ts';
import { closeCents, isTradingDay, splitsBetween } from './prices.ts';
import { between, randomFor } from './random.ts';
import { SECURITIES, type SandboxSecurity, type SecurityKey } from './securities.ts';

export type InvestmentRole = 'brokerage' | 'retirement';

/** What each account aims to hold, in basis points of its value. */
const TARGETS: Record<InvestmentRole, Partial<Record<SecurityKey, number>>> = {
  brokerage: { AAPL: 2_000, MSFT: 1_500, NVDA: 1_000, VTI: 3_500, BND: 1_000, BTC: 500, VMFXX: 500 },
  retirement: { VFIAX: 6_500, VBTLX: 3_500 },
};
/** Cash left uninvested after a purchase, and the least worth investing. */
const RESERVE_CENTS = 25_00;
const LEAST_PURCHASE_CENTS = 100_00;
/** Crypto purchases pay a 1 % fee on top. */
const CRYPTO_FEE_PERCENT = 1;
/** Uninvested brokerage cash earns 3.6 % a year, paid monthly. */
const CASH_INTEREST_BP_PER_YEAR = 360;
/** Rebalancing sells the most overweight position on the first trading day from the 10th of each quarter's first month. */
const REBALANCE_DOM = 10;

/** One investment account event, in integers: units of the security's quantity digits, cents from the holder's side. */
export interface Activity {
  /** Unique within the account. */
  key: string;
  day: number;
  type: InvestmentTransactionType;
  subtype: string;
  security: SandboxSecurity | null;
  /** Units in positive, out negative; 0 for cash movements. */
  units: number;
  priceCents: number;
  feeCents: number | null;
  /** Into the account's cash positive. */
  cents: number;
  description: string;
}

export interface Position {
  security: SandboxSecurity;
  units: number;
  costCents: number;
}

export interface Portfolio {
  activity: Activity[];
  /** What the account holds at the end of the last day (positions with units), by remoteId. */
  positions: Map<string, Position>;
  cashCents: number;
}

/**
 * An investment account's whole history, replayed from the household's first day to `lastDay`: an
 * opening deposit, the household's contributions and dividends, purchases of the account's targets
 * on the next trading day, quarterly rebalancing sales, splits, fees and interest. Everything
 * before a day is the same whichever later day the replay ends on, so ids and amounts never change.
 */
export function portfolioOf(household: Household, seed: string, role: InvestmentRole, lastDay: number): Portfolio {
  const ledger = new Ledger();
  ledger.cash(household.firstDay, 'opening', 'CASH', 'deposit', household.opening(role), 'Opening transfer');
  for (let day = household.firstDay; day <= lastDay; day++) {
    for (const movement of household.on(day)) {
      if (movement.account !== role) continue;
      if (movement.counterparty === FLOWS.dividend) ledger.record({ key: `${day}-dividend`, day, type: 'DIVIDEND', subtype: 'dividend', security: SECURITIES.VTI, units: 0, priceCents: 0, feeCents: null, cents: movement.cents, description: 'Dividend VTI' });
      else ledger.cash(day, 'contribution', 'CASH', 'contribution', movement.cents, movement.counterparty.name);
    }
    ledger.split(day);
    if (isRebalanceDay(day)) ledger.rebalance(day, TARGETS[role]);
    if (isTradingDay(SECURITIES.VTI, day)) ledger.invest(day, TARGETS[role]);
    if (new Date((day + 1) * DAY_MS).getUTCDate() === 1) monthEnd(ledger, seed, role, day);
  }
  return { activity: ledger.activity, positions: ledger.positions, cashCents: ledger.cashCents };
}

function monthEnd(ledger: Ledger, seed: string, role: InvestmentRole, day: number): void {
  if (role === 'retirement') {
    const fee = between(randomFor(`${seed}:${role}:fee:${day}`), 2_00, 6_00);
    ledger.cash(day, 'fee', 'FEE', 'account fee', -Math.min(fee, ledger.cashCents), 'Plan administration fee');
  } else {
    const interest = Math.floor((ledger.cashCents * CASH_INTEREST_BP_PER_YEAR) / 12 / 10_000);
    if (interest > 0) ledger.cash(day, 'interest', 'INTEREST', 'interest', interest, 'Interest on cash');
  }
}

function isRebalanceDay(day: number): boolean {
  const date = new Date(day * DAY_MS);
  if (date.getUTCMonth() % 3 !== 0 || date.getUTCDate() < REBALANCE_DOM || !isTradingDay(SECURITIES.VTI, day)) return false;
  for (let earlier = day - 1; new Date(earlier * DAY_MS).getUTCDate() >= REBALANCE_DOM; earlier--) if (isTradingDay(SECURITIES.VTI, earlier)) return false;
  return true;
}

class Ledger {
  readonly activity: Activity[] = [];
  readonly positions = new Map<string, Position>();
  cashCents = 0;

  record(activity: Activity): void {
    this.activity.push(activity);
    this.cashCents += activity.cents;
    if (!activity.security || activity.units === 0) return;
    const position = this.positions.get(activity.security.remoteId) ?? { security: activity.security, units: 0, costCents: 0 };
    if (activity.units > 0) {
      // A purchase adds what it cost (fees included); a split adds units at no cost.
      position.costCents -= activity.cents;
    } else {
      // A sale takes its share of the average cost.
      position.costCents -= shareOf(position.costCents, -activity.units, position.units);
    }
    position.units += activity.units;
    if (position.units === 0) this.positions.delete(activity.security.remoteId);
    else this.positions.set(activity.security.remoteId, position);
  }

  cash(day: number, key: string, type: InvestmentTransactionType, subtype: string, cents: number, description: string): void {
    if (cents !== 0) this.record({ key: `${day}-${key}`, day, type, subtype, security: null, units: 0, priceCents: 0, feeCents: null, cents, description });
  }

  split(day: number): void {
    for (const { security, units } of [...this.positions.values()]) {
      if (!security.split || splitsBetween(security, day - 1, day) === 0) continue;
      const added = units * (security.split.ratio - 1);
      this.record({ key: `${day}-split-${security.remoteId}`, day, type: 'OTHER', subtype: 'stock split', security, units: added, priceCents: 0, feeCents: null, cents: 0, description: `${security.tickerSymbol} ${security.split.ratio}-for-1 stock split` });
    }
  }

  /** Sells the position furthest above its target by its excess. */
  rebalance(day: number, targets: Partial<Record<SecurityKey, number>>): void {
    const total = this.cashCents + [...this.positions.values()].reduce((sum, position) => sum + this.#value(position, day), 0);
    let worst: { position: Position; excess: number } | undefined;
    for (const [key, basisPoints] of Object.entries(targets) as [SecurityKey, number][]) {
      const position = this.positions.get(SECURITIES[key].remoteId);
      const excess = position ? this.#value(position, day) - Math.floor((total * basisPoints) / 10_000) : 0;
      if (position && excess > (worst?.excess ?? LEAST_PURCHASE_CENTS)) worst = { position, excess };
    }
    if (!worst) return;
    const { security } = worst.position;
    const price = closeCents(security, day);
    const units = Math.min(worst.position.units, unitsFor(worst.excess, security.quantityDigits, price));
    if (units === 0) return;
    this.record({ key: `${day}-sell-${security.remoteId}`, day, type: 'SELL', subtype: 'sell', security, units: -units, priceCents: price, feeCents: null, cents: valueCents(units, security.quantityDigits, price), description: `Sell ${security.tickerSymbol} (rebalance)` });
  }

  /** Spends the cash above the reserve on the targets. */
  invest(day: number, targets: Partial<Record<SecurityKey, number>>): void {
    const investable = this.cashCents - RESERVE_CENTS;
    if (investable < LEAST_PURCHASE_CENTS) return;
    for (const [key, basisPoints] of Object.entries(targets) as [SecurityKey, number][]) {
      const security: SandboxSecurity = SECURITIES[key];
      const budget = Math.floor((investable * basisPoints) / 10_000);
      const crypto = security.type === 'CRYPTOCURRENCY';
      const price = closeCents(security, day);
      const units = unitsFor(crypto ? Math.floor((budget * 100) / (100 + CRYPTO_FEE_PERCENT)) : budget, security.quantityDigits, price);
      if (units === 0) continue;
      const cost = valueCents(units, security.quantityDigits, price);
      const fee = crypto ? Math.ceil((cost * CRYPTO_FEE_PERCENT) / 100) : null;
      this.record({ key: `${day}-buy-${security.remoteId}`, day, type: 'BUY', subtype: 'buy', security, units, priceCents: price, feeCents: fee, cents: -(cost + (fee ?? 0)), description: `Buy ${security.tickerSymbol}` });
    }
  }

  #value(position: Position, day: number): number {
    return valueCents(position.units, position.security.quantityDigits, closeCents(position.security, day));
  }
}
