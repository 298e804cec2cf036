import { InvestmentTransactionSubtype as Subtype, InvestmentTransactionType as Type, type Holding, type InvestmentTransaction, type Security } from 'plaid';
import { isoDay } from '../../../src/providers/sandbox/household.ts';
import { between, pick, randomFor } from '../../../src/providers/sandbox/random.ts';
import { plaidId } from './ids.ts';

/** An instrument the fake's brokerages trade; its `security_id` is the same at every Item, as Plaid's is. */
interface SecurityTemplate {
  key: string;
  name: string;
  ticker: string | null;
  type: string;
  cusip: string | null;
  isin: string | null;
  /** Close price in dollars (a bond: per dollar of face value). */
  closePrice: number;
  /** Digits a quantity of it has (shares: 4; coins: 8 or more). */
  quantityDigits: number;
}

const SECURITIES: readonly SecurityTemplate[] = [
  { key: 'vti', name: 'Vanguard Total Stock Market ETF', ticker: 'VTI', type: 'etf', cusip: '922908769', isin: 'US9229087690', closePrice: 276.81, quantityDigits: 4 },
  { key: 'aapl', name: 'Apple Inc.', ticker: 'AAPL', type: 'equity', cusip: '037833100', isin: 'US0378331005', closePrice: 227.52, quantityDigits: 4 },
  { key: 'target2050', name: 'Vanguard Target Retirement 2050 Trust II', ticker: null, type: 'mutual fund', cusip: '92202V351', isin: null, closePrice: 41.73, quantityDigits: 4 },
  { key: 'btc', name: 'Bitcoin', ticker: 'BTC', type: 'cryptocurrency', cusip: null, isin: null, closePrice: 67123.12, quantityDigits: 10 },
  { key: 'eth', name: 'Ethereum', ticker: 'ETH', type: 'cryptocurrency', cusip: null, isin: null, closePrice: 2456.78, quantityDigits: 8 },
  { key: 'treasury', name: 'US Treasury Note 4.25% 11/15/2034', ticker: null, type: 'fixed income', cusip: '91282CLW9', isin: 'US91282CLW90', closePrice: 0.9812, quantityDigits: 0 },
  { key: 'cash', name: 'U S Dollar', ticker: 'CUR:USD', type: 'cash', cusip: null, isin: null, closePrice: 1, quantityDigits: 2 },
];

/**
 * Instruments of the examples in Plaid's published description (2020-09-14.yml: /investments/holdings/get
 * holds 25,000 Dogecoin, /investments/transactions/get buys DoubleLine), described as there. The
 * generator never trades them: a test adds positions (`addHolding`) and trades (`addInvestmentTransaction`) in them.
 */
const EXAMPLE_SECURITIES: readonly SecurityTemplate[] = [
  { key: 'doge', name: 'Dogecoin', ticker: 'DOGE', type: 'cryptocurrency', cusip: null, isin: null, closePrice: 0.140034616, quantityDigits: 8 },
  { key: 'dbltx', name: 'DoubleLine Total Return Bond Fund', ticker: 'DBLTX', type: 'mutual fund', cusip: '258620103', isin: 'US2586201038', closePrice: 10.42, quantityDigits: 4 },
];

/** The DoubleLine buy of Plaid's /investments/transactions/get example (2020-09-14.yml), for `addInvestmentTransaction`: its quantity has 16 fraction digits. */
export function exampleBuy(securityId: string): Omit<InvestmentTransaction, 'investment_transaction_id' | 'account_id' | 'date'> {
  return {
    security_id: securityId,
    name: 'BUY DoubleLine Total Return Bond Fund',
    quantity: 0.7388014749727547,
    amount: 7.7,
    price: 10.42,
    fees: 7.99,
    type: Type.Buy,
    subtype: Subtype.Buy,
    iso_currency_code: 'USD',
    unofficial_currency_code: null,
  };
}

/**
 * What a brokerage holds on the link day, written as Plaid sends it: `institution_value` is quantity
 * × price rounded to the cent by the institution. The bitcoin position has ten fraction digits; the
 * ether one is dust (5e-7, which JSON writes in exponent form, as Plaid's servers do below 1e-6).
 */
const HOLDINGS: readonly { security: string; quantity: number; value: number; costBasis: number | null }[] = [
  { security: 'vti', quantity: 42.5, value: 11764.43, costBasis: 9800 },
  { security: 'aapl', quantity: 10, value: 2275.2, costBasis: 1500.25 },
  { security: 'target2050', quantity: 88.1021, value: 3676.5, costBasis: null },
  { security: 'btc', quantity: 0.1234567891, value: 8286.8, costBasis: 5000 },
  { security: 'eth', quantity: 0.0000005, value: 0, costBasis: null },
  { security: 'treasury', quantity: 5000, value: 4906, costBasis: 4950 },
  { security: 'cash', quantity: 1520.37, value: 1520.37, costBasis: 1520.37 },
];

const TRADED = SECURITIES.filter((security) => security.type !== 'cash');
const PAYING = SECURITIES.filter((security) => security.key === 'vti' || security.key === 'aapl' || security.key === 'target2050');
const template = (key: string) => SECURITIES.find((security) => security.key === key)!;
const securityId = (key: string) => plaidId('security', key);
const toCents = (amount: number) => Math.round(amount * 100);

/** Every security the fake knows, as /investments/* report them. */
export function allSecurities(asOf: string): Security[] {
  return [...SECURITIES, ...EXAMPLE_SECURITIES].map((security) => ({
    security_id: securityId(security.key),
    isin: security.isin,
    cusip: security.cusip,
    sedol: null,
    institution_security_id: null,
    institution_id: null,
    proxy_security_id: null,
    name: security.name,
    ticker_symbol: security.ticker,
    is_cash_equivalent: security.type === 'cash',
    type: security.type,
    close_price: security.closePrice,
    close_price_as_of: asOf,
    iso_currency_code: 'USD',
    unofficial_currency_code: null,
    market_identifier_code: security.type === 'equity' || security.type === 'etf' ? 'XNAS' : null,
    sector: null,
    industry: null,
    cfi_code: null,
    figi: null,
    option_contract: null,
    fixed_income: null,
  }));
}

/** A brokerage's positions and its history of investment activity (Plaid's signs: `amount` positive = cash out). */
export class FakeBrokerage {
  readonly accountId: string;
  readonly holdings: Holding[];
  /** Newest first, as /investments/transactions/get pages them. */
  transactions: InvestmentTransaction[] = [];
  readonly #seed: string;
  #serial = 0;

  constructor(seed: string, accountId: string, firstDay: number, today: number) {
    this.#seed = seed;
    this.accountId = accountId;
    this.holdings = HOLDINGS.map((holding) => ({
      account_id: accountId,
      security_id: securityId(holding.security),
      institution_price: template(holding.security).closePrice,
      institution_price_as_of: isoDay(today),
      institution_value: holding.value,
      cost_basis: holding.costBasis,
      quantity: holding.quantity,
      iso_currency_code: 'USD',
      unofficial_currency_code: null,
    }));
    for (let day = firstDay; day <= today; day++) this.#record(this.#draw(day, between(randomFor(`${seed}:investment-count:${day}`), 0, 2)));
  }

  /** The account's balances: what the holdings are worth (cash included), and the cash that can be spent. */
  balances(): { current: number; available: number } {
    const current = this.holdings.reduce((sum, holding) => sum + toCents(holding.institution_value), 0);
    const cash = this.holdings.filter((holding) => holding.security_id === securityId('cash')).reduce((sum, holding) => sum + toCents(holding.institution_value), 0);
    return { current: current / 100, available: cash / 100 };
  }

  /** A test's own trade (`addInvestmentTransaction`): Plaid's fields as given, in this account, with an id of the brokerage's. */
  addOwn(day: number, transaction: Omit<InvestmentTransaction, 'investment_transaction_id' | 'account_id' | 'date'>): InvestmentTransaction {
    const added = { ...transaction, investment_transaction_id: plaidId(this.accountId, 'investment', this.#serial++), account_id: this.accountId, date: isoDay(day) };
    this.#record([added]);
    return added;
  }

  /** `count` new trades dated `day` (a test's `addInvestmentTransactions`). */
  add(day: number, count: number): InvestmentTransaction[] {
    const added = this.#draw(day, count);
    this.#record(added);
    return added;
  }

  #record(added: InvestmentTransaction[]) {
    this.transactions = [...added, ...this.transactions].sort((a, b) => b.date.localeCompare(a.date) || a.investment_transaction_id.localeCompare(b.investment_transaction_id));
  }

  #draw(day: number, count: number): InvestmentTransaction[] {
    const drawn: InvestmentTransaction[] = [];
    for (let i = 0; i < count; i++) {
      const serial = this.#serial++;
      const random = randomFor(`${this.#seed}:investment:${day}:${serial}`);
      drawn.push(this.#transaction(day, serial, random));
    }
    return drawn;
  }

  #transaction(day: number, serial: number, random: () => number): InvestmentTransaction {
    const base = { investment_transaction_id: plaidId(this.accountId, 'investment', serial), account_id: this.accountId, date: isoDay(day), iso_currency_code: 'USD', unofficial_currency_code: null };
    const roll = random();
    if (roll < 0.7) {
      const security = pick(random, TRADED);
      const buy = roll < 0.45;
      const scale = 10 ** security.quantityDigits;
      // Whole units of the smallest fraction: a share to 4 digits, a coin to 8 or 10, a bond by 1,000 face.
      const units = security.quantityDigits === 0 ? between(random, 1, 5) * 1000 : security.quantityDigits > 4 ? between(random, scale / 10_000, scale / 100) : between(random, 1, 3 * scale);
      const quantity = units / scale;
      const priceCents = Math.max(1, Math.round(security.closePrice * 100 * (0.8 + 0.4 * random())));
      const grossCents = Math.round((units * priceCents) / scale);
      // A commission only on trades worth more than it, so a sale always brings cash in.
      const fees = grossCents > 10_000 ? pick(random, [0, 0, 0.99, 4.95]) : 0;
      const cashCents = buy ? grossCents + toCents(fees) : -(grossCents - toCents(fees));
      return {
        ...base,
        security_id: securityId(security.key),
        name: `${buy ? 'BUY' : 'SELL'} ${security.name}`,
        quantity: buy ? quantity : -quantity,
        price: priceCents / 100,
        fees,
        amount: cashCents / 100,
        type: buy ? Type.Buy : Type.Sell,
        subtype: buy ? Subtype.Buy : Subtype.Sell,
      };
    }
    const cash = (type: Type, subtype: Subtype, name: string, cents: number, security: string | null = null): InvestmentTransaction => ({
      ...base,
      security_id: security === null ? null : securityId(security),
      name,
      quantity: 0,
      price: 0,
      fees: null,
      amount: cents / 100,
      type,
      subtype,
    });
    if (roll < 0.8) {
      const security = pick(random, PAYING);
      return cash(Type.Cash, pick(random, [Subtype.Dividend, Subtype.QualifiedDividend]), `DIVIDEND ${security.name}`, -between(random, 100, 9_999), security.key);
    }
    if (roll < 0.85) return cash(Type.Cash, Subtype.Interest, 'INTEREST ON CASH', -between(random, 1, 999));
    if (roll < 0.92) return cash(Type.Fee, Subtype.AccountFee, 'ACCOUNT FEE', between(random, 100, 2_500));
    if (roll < 0.97) return cash(Type.Cash, Subtype.Deposit, 'ACH DEPOSIT', -between(random, 10_000, 200_000));
    return cash(Type.Cash, Subtype.Withdrawal, 'ACH WITHDRAWAL', between(random, 10_000, 100_000));
  }
}
