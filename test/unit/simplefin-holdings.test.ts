import { describe, expect, it } from 'vitest';
import { quotient, sum } from '../../src/providers/decimals.ts';
import { securityType, toInvestments, type HoldingsOfAccount } from '../../src/providers/simplefin/holdings.ts';
import { RecentHoldings } from '../../src/providers/simplefin/recent-holdings.ts';

// 2026-03-10T12:00:00Z
const BALANCE_DATE = 1_773_144_000;

function account(holdings: unknown[], overrides: Partial<HoldingsOfAccount> = {}): HoldingsOfAccount {
  return { id: 'ACT-1', currency: 'USD', 'balance-date': BALANCE_DATE, holdings, ...overrides };
}

// A Schwab position as the Bridge reports it: cost_basis is the whole position's (shares × purchase_price).
const SWTSX = { id: 'HOL-1', created: 1_772_939_703, currency: 'USD', cost_basis: '3538.42', description: 'Schwab Total Stock Market Index Fund®', market_value: '4147.71', purchase_price: '15.594692', shares: '226.899', symbol: 'SWTSX' };

describe('exact decimals', () => {
  it('sums strings of any precision exactly', () => {
    expect(sum(['0.1', '0.2'])).toBe('0.3');
    expect(sum(['12.5', '0.0000000001', '-2'])).toBe('10.5000000001');
    expect(sum(['1.10', '2.90'])).toBe('4.00');
    expect(sum(['2750.00'])).toBe('2750.00');
    expect(sum(['-0.50', '0.5'])).toBe('0.00');
  });

  it('divides to the digits asked for, rounding half away from zero', () => {
    expect(quotient('4147.71', '226.899', 10)).toBe('18.279983605');
    expect(quotient('2000', '10', 10)).toBe('200');
    expect(quotient('2000.00', '0.5', 10)).toBe('4000');
    expect(quotient('7.5', '3', 0)).toBe('3');
    expect(quotient('1', '3', 2)).toBe('0.33');
    expect(quotient('2', '3', 2)).toBe('0.67');
    expect(quotient('0.005', '1', 2)).toBe('0.01');
    expect(quotient('-0.005', '1', 2)).toBe('-0.01');
    expect(quotient('1197.48', '0.01234567', 10)).toBe('96995.9508070441');
    expect(() => quotient('1', '0.00', 2)).toThrow(RangeError);
  });
});

describe('security types from the description', () => {
  it('guesses only from clear words, else OTHER', () => {
    expect(securityType('Vanguard Federal Money Market Fund')).toBe('CASH');
    expect(securityType('iShares 20+ Year Treasury Bond ETF')).toBe('ETF');
    expect(securityType('Schwab Total Stock Market Index Fund®')).toBe('MUTUAL_FUND');
    expect(securityType('Bitcoin')).toBe('CRYPTOCURRENCY');
    expect(securityType('US Treasury Bill 0% 06/2026')).toBe('FIXED_INCOME');
    expect(securityType('AAPL Jun 2026 250 Call')).toBe('DERIVATIVE');
    expect(securityType('Apple Inc. Common Stock')).toBe('EQUITY');
    expect(securityType('VDE')).toBe('OTHER');
    expect(securityType('Coinbase Global')).toBe('OTHER');
    expect(securityType(undefined)).toBe('OTHER');
  });
});

describe('holdings to securities and holdings', () => {
  it('keeps the Bridge amounts exactly: value as reported, price = market value ÷ shares, cost basis of the whole position', () => {
    const { securities, holdings } = toInvestments([account([SWTSX])]);
    expect(securities).toEqual([
      { remoteId: 'SWTSX', name: 'Schwab Total Stock Market Index Fund®', tickerSymbol: 'SWTSX', isin: null, cusip: null, type: 'MUTUAL_FUND', currencyCode: 'USD', closePrice: null, closePriceDate: null },
    ]);
    expect(holdings).toEqual([
      {
        accountRemoteId: 'ACT-1',
        securityRemoteId: 'SWTSX',
        quantity: '226.899',
        price: '18.279983605',
        priceDate: '2026-03-10',
        value: '4147.71',
        costBasis: '3538.42',
        currencyCode: 'USD',
        raw: { holdings: [SWTSX] },
      },
    ]);
  });

  it('keeps crypto fractions, takes the account currency when the holding has none, and leaves an unknown cost basis null', () => {
    const btc = { id: 'HOL-2', description: 'Bitcoin', market_value: '1197.48', shares: '0.01234567', symbol: 'btc ' };
    const { securities, holdings } = toInvestments([account([btc], { currency: 'CAD' })]);
    expect(securities[0]).toMatchObject({ remoteId: 'BTC', tickerSymbol: 'BTC', type: 'CRYPTOCURRENCY', currencyCode: 'CAD' });
    expect(holdings[0]).toMatchObject({ quantity: '0.01234567', price: '96995.9508070441', value: '1197.48', costBasis: null, currencyCode: 'CAD' });
  });

  it("takes the holding's own currency over the account's; an unusable one falls back to the account's", () => {
    const cad = { ...SWTSX, symbol: 'SHOP', description: 'Shopify Inc. Class A', currency: 'CAD' };
    const odd = { ...SWTSX, symbol: 'ODD', currency: 'dollars' };
    const { securities, holdings } = toInvestments([account([cad, odd])]);
    expect(securities.map((security) => [security.remoteId, security.type, security.currencyCode])).toEqual([
      ['SHOP', 'EQUITY', 'CAD'],
      ['ODD', 'MUTUAL_FUND', 'USD'],
    ]);
    expect(holdings.map((holding) => holding.currencyCode)).toEqual(['CAD', 'USD']);
  });

  it('sums positions of one security in one account into one holding; one security serves every account', () => {
    const lot = (id: string, shares: string, value: string, cost?: string) => ({ id, symbol: 'VTI', description: 'Vanguard Total Stock Market ETF', shares, market_value: value, ...(cost ? { cost_basis: cost } : {}) });
    const { securities, holdings } = toInvestments([
      account([lot('a', '10', '2900.00', '2200.00'), lot('b', '2.5', '725.00', '600.00')]),
      account([lot('c', '1', '290.00', '250.00'), lot('d', '1', '290.00')], { id: 'ACT-2' }),
    ]);
    expect(securities.map((security) => security.remoteId)).toEqual(['VTI']);
    expect(holdings.map(({ accountRemoteId, quantity, price, value, costBasis }) => ({ accountRemoteId, quantity, price, value, costBasis }))).toEqual([
      { accountRemoteId: 'ACT-1', quantity: '12.5', price: '290', value: '3625.00', costBasis: '2800.00' },
      // One lot's cost is unknown: so is the position's.
      { accountRemoteId: 'ACT-2', quantity: '2', price: '290', value: '580.00', costBasis: null },
    ]);
  });

  it('names a security without a symbol by its description', () => {
    const { securities, holdings } = toInvestments([account([{ id: 'HOL-9', description: 'Stable Value Fund', shares: '100', market_value: '1000.00' }])]);
    expect(securities[0]).toMatchObject({ remoteId: 'description:Stable Value Fund', tickerSymbol: null, name: 'Stable Value Fund', type: 'MUTUAL_FUND' });
    expect(holdings[0]).toMatchObject({ securityRemoteId: 'description:Stable Value Fund', price: '10' });
  });

  it('leaves out positions it cannot price: no shares, amounts that are not decimal strings, or nothing at all', () => {
    const { securities, holdings } = toInvestments([
      account([{ ...SWTSX, shares: '0' }, { ...SWTSX, market_value: undefined }, { ...SWTSX, shares: '1e3' }, { ...SWTSX, shares: 12 }, null, 'VTI']),
      account([], { id: 'ACT-2' }),
      { id: 'ACT-3', currency: 'USD', 'balance-date': BALANCE_DATE },
    ]);
    expect(securities).toEqual([]);
    expect(holdings).toEqual([]);
  });
});

describe('recent holdings', () => {
  it("serves a login's last holdings for fifteen minutes, to that login only, without transactions", () => {
    const recent = new RecentHoldings();
    const t0 = Date.parse('2026-03-10T12:00:00Z');
    recent.remember('login-a', [{ ...account([SWTSX]), transactions: [{ id: 'TRN-1' }] } as HoldingsOfAccount], t0);
    expect(recent.recall('login-a', t0 + 14 * 60_000)).toEqual([account([SWTSX])]);
    expect(recent.recall('login-b', t0)).toBeUndefined();
    expect(recent.recall('login-a', t0 + 15 * 60_000)).toBeUndefined();
    recent.remember('login-a', [account([])], t0 + 20 * 60_000);
    expect(recent.recall('login-a', t0 + 21 * 60_000)).toEqual([account([])]);
  });
});
