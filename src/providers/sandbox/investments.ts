import type { InvestmentSnapshot, ProviderHolding, ProviderInvestmentTransaction, ProviderSecurity } from '../provider-investments.ts';
import { isoDay } from './household.ts';
import { centsToDecimal, unitsToDecimal, valueCents } from './money.ts';
import type { Activity, Portfolio } from './portfolio.ts';
import { closeCents, lastTradingDay } from './prices.ts';
import { SECURITIES, type SandboxSecurity } from './securities.ts';

/** An investment account's portfolio on a day, with the remote id it is reported under. */
export interface AccountPortfolio {
  accountRemoteId: string;
  portfolio: Portfolio;
}

/** What the accounts hold at the end of `today` (their cash as a holding of U.S. dollars) and their activity from `start`. */
export function presentInvestments(accounts: AccountPortfolio[], start: number, today: number): InvestmentSnapshot {
  const holdings = accounts.flatMap(({ accountRemoteId, portfolio }) => holdingsOf(accountRemoteId, portfolio, today));
  const transactions = accounts.flatMap(({ accountRemoteId, portfolio }) =>
    portfolio.activity.filter((activity) => activity.day >= start).map((activity) => presentActivity(accountRemoteId, activity)),
  );
  const named = new Set([...holdings.map((holding) => holding.securityRemoteId), ...transactions.flatMap((transaction) => transaction.securityRemoteId ?? [])]);
  const securities = Object.values(SECURITIES as Record<string, SandboxSecurity>).filter((security) => named.has(security.remoteId));
  return { securities: securities.map((security) => presentSecurity(security, today)), holdings, transactions, start: isoDay(start), end: isoDay(today) };
}

/** The account's balance: its holdings' value, cash included. */
export function portfolioValueCents(portfolio: Portfolio, today: number): number {
  return [...portfolio.positions.values()].reduce((sum, { security, units }) => sum + valueCents(units, security.quantityDigits, closeCents(security, today)), portfolio.cashCents);
}

function holdingsOf(accountRemoteId: string, portfolio: Portfolio, today: number): ProviderHolding[] {
  const cash = { security: SECURITIES.USD, units: portfolio.cashCents, costCents: portfolio.cashCents };
  return [...portfolio.positions.values(), cash].map(({ security, units, costCents }) => {
    const price = closeCents(security, today);
    const priceDay = isoDay(lastTradingDay(security, today));
    return {
      accountRemoteId,
      securityRemoteId: security.remoteId,
      quantity: unitsToDecimal(units, security.quantityDigits),
      price: centsToDecimal(price),
      priceDate: priceDay,
      value: centsToDecimal(valueCents(units, security.quantityDigits, price)),
      costBasis: centsToDecimal(costCents),
      currencyCode: 'USD',
      raw: { priceAsOf: priceDay, costBasisMethod: 'average' },
    };
  });
}

function presentActivity(accountRemoteId: string, activity: Activity): ProviderInvestmentTransaction {
  const remoteId = `${accountRemoteId}-${activity.key}`;
  return {
    remoteId,
    accountRemoteId,
    securityRemoteId: activity.security?.remoteId ?? null,
    date: isoDay(activity.day),
    type: activity.type,
    subtype: activity.subtype,
    quantity: unitsToDecimal(activity.units, activity.security?.quantityDigits ?? 0),
    price: centsToDecimal(activity.priceCents),
    fees: activity.feeCents === null ? null : centsToDecimal(activity.feeCents),
    amount: centsToDecimal(activity.cents),
    currencyCode: 'USD',
    description: activity.description,
    raw: { guid: `ITX-${remoteId}` },
  };
}

function presentSecurity(security: SandboxSecurity, today: number): ProviderSecurity {
  return {
    remoteId: security.remoteId,
    name: security.name,
    tickerSymbol: security.tickerSymbol,
    isin: security.isin,
    cusip: security.cusip,
    type: security.type,
    currencyCode: 'USD',
    closePrice: centsToDecimal(closeCents(security, today)),
    closePriceDate: isoDay(lastTradingDay(security, today)),
  };
}
