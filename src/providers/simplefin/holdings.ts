import type { ProviderHolding, ProviderSecurity, SecurityType } from '../provider-investments.ts';
import { isDecimal, isZero, quotient, sum } from '../decimals.ts';

/**
 * A position as the SimpleFIN Bridge reports it in an account's `holdings` (the Bridge's extension of
 * the protocol). Amounts are decimal strings: `market_value` is the position's worth now,
 * `cost_basis` what was paid for the whole position, `purchase_price` the average paid per share.
 */
export interface SimplefinHolding {
  id?: string;
  /** Unix seconds the Bridge first saw the position. */
  created?: number;
  symbol?: string;
  description?: string;
  currency?: string;
  shares?: string;
  market_value?: string;
  cost_basis?: string;
  purchase_price?: string;
}

/** What the investment read needs of an account: its id, currency, balance date and holdings. */
export interface HoldingsOfAccount {
  id: string;
  currency: string;
  'balance-date': number;
  holdings?: unknown[];
}

/** The holding fields that carry amounts: read from the answer's text, never through a float. */
export const HOLDING_DECIMAL_FIELDS: ReadonlySet<string> = new Set(['shares', 'market_value', 'cost_basis', 'purchase_price']);

/** Fraction digits of a price derived from market value and shares (fractional shares, crypto). */
const PRICE_DIGITS = 10;
const CURRENCY = /^[A-Z]{3}$/;

/** Conservative guesses from the description, first match wins; anything else is OTHER. */
const TYPE_WORDS: Array<[RegExp, SecurityType]> = [
  [/\b(money market|cash|sweep|settlement fund)\b/i, 'CASH'],
  [/\b(etf|exchange[- ]traded fund)\b/i, 'ETF'],
  [/\b(fund|admiral|investor shares)\b/i, 'MUTUAL_FUND'],
  [/\b(bitcoin|ethereum|crypto\w*|coin)\b/i, 'CRYPTOCURRENCY'],
  [/\b(bonds?|treasury|t-bill|notes?|cd|certificate of deposit)\b/i, 'FIXED_INCOME'],
  [/\b(options?|calls?|puts?|warrants?|futures?)\b/i, 'DERIVATIVE'],
  [/\b(inc|corp|corporation|plc|ltd|common stock|ordinary shares|class [a-c]|adr)\b/i, 'EQUITY'],
];

export function securityType(description: string | undefined): SecurityType {
  return TYPE_WORDS.find(([pattern]) => pattern.test(description ?? ''))?.[1] ?? 'OTHER';
}

/**
 * The securities and holdings of the accounts' `holdings`. A security per symbol (its `remoteId`;
 * without a symbol, the description names it); positions of one security in one account are summed
 * into one holding. Price is market value ÷ shares (the Bridge reports no price, and
 * `purchase_price` is what was paid), dated the account's balance day; value is the market value as
 * reported. A position without shares or market value as decimal strings, or with no shares, is not
 * reported: it cannot be priced.
 */
export function toInvestments(accounts: HoldingsOfAccount[]): { securities: ProviderSecurity[]; holdings: ProviderHolding[] } {
  const securities = new Map<string, ProviderSecurity>();
  const holdings: ProviderHolding[] = [];
  for (const account of accounts) {
    const accountCurrency = CURRENCY.test(account.currency) ? account.currency : 'XXX';
    const positions = new Map<string, SimplefinHolding[]>();
    for (const holding of (account.holdings ?? []).filter(isPricedHolding)) {
      const security = toSecurity(holding, accountCurrency);
      if (!securities.has(security.remoteId)) securities.set(security.remoteId, security);
      positions.set(security.remoteId, [...(positions.get(security.remoteId) ?? []), holding]);
    }
    for (const [securityRemoteId, lots] of positions) {
      const holding = toHolding(account, securityRemoteId, lots, currencyOf(lots[0]!, accountCurrency));
      if (holding) holdings.push(holding);
    }
  }
  return { securities: [...securities.values()], holdings };
}

function toSecurity(holding: SimplefinHolding, accountCurrency: string): ProviderSecurity {
  const symbol = holding.symbol?.trim().toUpperCase() || null;
  const name = holding.description?.trim() || null;
  return {
    remoteId: symbol ?? (name ? `description:${name}` : `holding:${holding.id ?? ''}`),
    name: name ?? symbol,
    tickerSymbol: symbol,
    isin: null,
    cusip: null,
    type: securityType(name ?? undefined),
    currencyCode: currencyOf(holding, accountCurrency),
    // SimpleFIN reports no close price: a holding's price is derived from one person's position.
    closePrice: null,
    closePriceDate: null,
  };
}

/** The lots of one security in one account as one holding; null when they net to no shares. */
function toHolding(account: HoldingsOfAccount, securityRemoteId: string, lots: SimplefinHolding[], currencyCode: string): ProviderHolding | null {
  const quantity = sum(lots.map((lot) => lot.shares!));
  if (isZero(quantity)) return null;
  const value = sum(lots.map((lot) => lot.market_value!));
  const costs = lots.map((lot) => lot.cost_basis);
  return {
    accountRemoteId: account.id,
    securityRemoteId,
    quantity,
    price: quotient(value, quantity, PRICE_DIGITS),
    priceDate: new Date(account['balance-date'] * 1000).toISOString().slice(0, 10),
    value,
    costBasis: costs.every((cost) => typeof cost === 'string' && isDecimal(cost)) ? sum(costs as string[]) : null,
    currencyCode,
    raw: { holdings: lots },
  };
}

function currencyOf(holding: SimplefinHolding, accountCurrency: string): string {
  return typeof holding.currency === 'string' && CURRENCY.test(holding.currency) ? holding.currency : accountCurrency;
}

function isPricedHolding(holding: unknown): holding is SimplefinHolding {
  if (typeof holding !== 'object' || holding === null) return false;
  const { shares, market_value: marketValue } = holding as SimplefinHolding;
  return typeof shares === 'string' && isDecimal(shares) && typeof marketValue === 'string' && isDecimal(marketValue) && !isZero(shares);
}
