import type { InvestmentSnapshot, ProviderHolding, ProviderInvestmentTransaction, ProviderSecurity } from '../../src/providers/provider-investments.ts';
import { NO_LIABILITY_DETAILS, type ProviderLiability } from '../../src/providers/provider-liabilities.ts';

/** What happens at the model brokerage between syncs. */
export type BrokerCommand =
  | { kind: 'buy'; account: number; security: number; units: number; daysAgo: number }
  | { kind: 'sell'; pick: number; units: number }
  | { kind: 'reprice'; security: number; cents: number }
  | { kind: 'correct'; pick: number; cents: number }
  | { kind: 'cancel'; pick: number }
  | { kind: 'owe'; account: number; cents: number };

/**
 * Securities the brokerage names: two with an ISIN, one with a CUSIP only, one with a ticker only, one
 * with nothing but the brokerage's id; quantities and prices with up to 10 fraction digits.
 */
export const MODEL_SECURITIES: ProviderSecurity[] = [
  security('s0', { name: 'Vanguard Total Stock Market ETF', tickerSymbol: 'VTI', isin: 'US9229087690', type: 'ETF' }),
  security('s1', { name: 'Apple Inc.', tickerSymbol: 'AAPL', isin: 'US0378331005', type: 'EQUITY' }),
  security('s2', { name: 'US Treasury 4.25% 2034', cusip: '91282CJZ5', type: 'FIXED_INCOME' }),
  security('s3', { name: 'Bitcoin', tickerSymbol: 'BTC', type: 'CRYPTOCURRENCY' }),
  security('s4', { name: 'Target Retirement 2055 Trust', type: 'MUTUAL_FUND' }),
];

function security(remoteId: string, fields: Partial<ProviderSecurity> & { type: ProviderSecurity['type'] }): ProviderSecurity {
  return { remoteId, name: null, tickerSymbol: null, isin: null, cusip: null, currencyCode: 'USD', closePrice: null, closePriceDate: null, ...fields };
}

interface Activity {
  remoteId: string;
  account: string;
  security: string;
  date: string;
  /** Units in 10^-10 (positive: bought). */
  units: bigint;
  cents: bigint;
}

/** Exact decimal text of an integer scaled by 10^scale. */
export function decimal(value: bigint, scale: number): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

const UNIT = 10_000_000_000n;

/**
 * A brokerage with investment accounts: positions that buys add to and sales take from, a price per
 * security, and the activity that made them (dated, with its own ids), plus each account's debt
 * details. It reports them as a provider's investment snapshot would.
 */
export class ModelBrokerage {
  readonly accountRemoteIds: string[];
  readonly today: string;
  readonly #prices = MODEL_SECURITIES.map((_, index) => BigInt(1_000 + index * 731) * 1_000_000n);
  readonly #activity: Activity[] = [];
  readonly #owed: bigint[];
  #ids = 0;

  constructor(accountRemoteIds: string[], today: string) {
    this.accountRemoteIds = accountRemoteIds;
    this.today = today;
    this.#owed = accountRemoteIds.map(() => 0n);
  }

  apply(command: BrokerCommand): void {
    const activity = this.#activity;
    const picked = (pick: number) => activity[pick % Math.max(1, activity.length)];
    switch (command.kind) {
      case 'buy': {
        const units = BigInt(command.units) * 1_234_567n;
        const price = this.#prices[command.security % MODEL_SECURITIES.length]!;
        activity.push({
          remoteId: `itx${this.#ids++}`,
          account: this.accountRemoteIds[command.account % this.accountRemoteIds.length]!,
          security: MODEL_SECURITIES[command.security % MODEL_SECURITIES.length]!.remoteId,
          date: daysBefore(this.today, command.daysAgo),
          units,
          cents: -((units * price) / UNIT / 1_000_000n),
        });
        return;
      }
      case 'sell': {
        const bought = picked(command.pick);
        if (!bought) return;
        const held = this.#positions().get(`${bought.account}\n${bought.security}`) ?? 0n;
        const units = held < BigInt(command.units) * 1_000_000n ? held : BigInt(command.units) * 1_000_000n;
        if (units === 0n) return;
        activity.push({ remoteId: `itx${this.#ids++}`, account: bought.account, security: bought.security, date: this.today, units: -units, cents: units / 1_000_000n + 1n });
        return;
      }
      case 'reprice':
        this.#prices[command.security % MODEL_SECURITIES.length] = BigInt(command.cents) * 100_000_000n + 7n;
        return;
      case 'correct': {
        const target = picked(command.pick);
        if (target) target.cents = BigInt(command.cents);
        return;
      }
      case 'cancel': {
        const target = picked(command.pick);
        // Only a sale is cancelled (a buy cancelled could leave a negative position).
        if (target && target.units < 0n) activity.splice(activity.indexOf(target), 1);
        return;
      }
      case 'owe':
        this.#owed[command.account % this.#owed.length] = BigInt(command.cents);
        return;
    }
  }

  /** Units held per `account\nsecurity`, from the activity. */
  #positions(): Map<string, bigint> {
    const positions = new Map<string, bigint>();
    for (const { account, security, units } of this.#activity) positions.set(`${account}\n${security}`, (positions.get(`${account}\n${security}`) ?? 0n) + units);
    return positions;
  }

  /** What the brokerage reports now: holdings of every position not sold off, and the activity from `start`. */
  snapshot(start: string): InvestmentSnapshot {
    const holdings: ProviderHolding[] = [];
    for (const [position, units] of this.#positions()) {
      if (units === 0n) continue;
      const [accountRemoteId, securityRemoteId] = position.split('\n') as [string, string];
      const price = this.#prices[MODEL_SECURITIES.findIndex((candidate) => candidate.remoteId === securityRemoteId)]!;
      holdings.push({
        accountRemoteId,
        securityRemoteId,
        quantity: decimal(units, 10),
        price: decimal(price, 10),
        priceDate: this.today,
        value: decimal((units * price) / UNIT / 1_000_000n, 4),
        costBasis: null,
        currencyCode: 'USD',
        raw: { position },
      });
    }
    const transactions: ProviderInvestmentTransaction[] = this.#activity
      .filter((activity) => activity.date >= start)
      .map((activity) => ({
        remoteId: activity.remoteId,
        accountRemoteId: activity.account,
        securityRemoteId: activity.security,
        date: activity.date,
        type: activity.units > 0n ? 'BUY' : 'SELL',
        subtype: activity.units > 0n ? 'buy' : 'sell',
        quantity: decimal(activity.units, 10),
        price: '1',
        fees: null,
        amount: decimal(activity.cents, 2),
        currencyCode: 'USD',
        description: `${activity.units > 0n ? 'BUY' : 'SELL'} ${activity.security}`,
        raw: { id: activity.remoteId },
      }));
    return { securities: structuredClone(MODEL_SECURITIES), holdings, transactions, start, end: this.today };
  }

  /** Every account's debt details (the model's accounts are lines of credit too: its owed amount changes). */
  liabilities(): ProviderLiability[] {
    return this.accountRemoteIds.map((accountRemoteId, index) => ({
      ...NO_LIABILITY_DETAILS,
      accountRemoteId,
      kind: 'CREDIT',
      aprs: [{ type: 'purchase_apr', percentage: '24.99', balanceSubjectToApr: decimal(-this.#owed[index]!, 2) }],
      minimumPayment: decimal(-(this.#owed[index]! / 50n), 2),
      nextPaymentDueDate: this.today,
      lastStatementBalance: decimal(-this.#owed[index]!, 2),
      isOverdue: false,
      raw: {},
    }));
  }
}

function daysBefore(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
}
