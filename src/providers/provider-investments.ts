/*
 * Products beyond cash. Quantities, prices and amounts are exact decimal strings with every digit
 * the upstream gives (all are stored); nothing goes through a float. Money follows the same signs as transactions and balances: money into an account positive,
 * what the holder owes negative.
 */

/** What investment accounts hold and did, as one upstream read reports it. */
export interface InvestmentSnapshot {
  /** Every security a holding or an investment transaction names. */
  securities: ProviderSecurity[];
  /** What every investment account of the login holds now, one per (account, security), lots summed (an account absent here holds nothing). */
  holdings: ProviderHolding[];
  /** Investment activity over [start, end]; null when the upstream reports none (SimpleFIN). */
  transactions: ProviderInvestmentTransaction[] | null;
  /** First day the activity covers: stored activity before it is never removed because of it. */
  start: string;
  /** The upstream's today. */
  end: string;
}

export const SECURITY_TYPES = ['EQUITY', 'ETF', 'MUTUAL_FUND', 'FIXED_INCOME', 'CASH', 'CRYPTOCURRENCY', 'DERIVATIVE', 'OTHER'] as const;
export type SecurityType = (typeof SECURITY_TYPES)[number];

/** An instrument, as the upstream describes it; holds nothing about any person. */
export interface ProviderSecurity {
  /** The upstream's id of the instrument (Plaid's security_id; SimpleFIN: the symbol). */
  remoteId: string;
  name: string | null;
  tickerSymbol: string | null;
  isin: string | null;
  cusip: string | null;
  type: SecurityType;
  currencyCode: string;
  /** The latest close price the upstream knows, and its day. */
  closePrice: string | null;
  closePriceDate: string | null;
}

export interface ProviderHolding {
  accountRemoteId: string;
  securityRemoteId: string;
  quantity: string;
  price: string;
  /** The day of `price`; null when the upstream does not say. */
  priceDate: string | null;
  /** quantity × price as the upstream reports it (its rounding kept). */
  value: string;
  /** What was paid for the whole position; null when unknown. */
  costBasis: string | null;
  currencyCode: string;
  /** The provider's own data, stored as the holding's `remoteData`. */
  raw: Record<string, unknown>;
}

export const INVESTMENT_TRANSACTION_TYPES = ['BUY', 'SELL', 'DIVIDEND', 'INTEREST', 'FEE', 'TRANSFER', 'CASH', 'CANCEL', 'OTHER'] as const;
export type InvestmentTransactionType = (typeof INVESTMENT_TRANSACTION_TYPES)[number];

export interface ProviderInvestmentTransaction {
  remoteId: string;
  accountRemoteId: string;
  /** Null for cash movements (a deposit, a fee not tied to a security). */
  securityRemoteId: string | null;
  date: string;
  type: InvestmentTransactionType;
  /** The upstream's finer label (Plaid's subtype: `dividend`, `stock split`, `management fee`, …). */
  subtype: string | null;
  /** Units into the account positive, out negative (a buy positive, a sell negative); 0 for cash movements. */
  quantity: string;
  price: string;
  /** What was charged, positive (already counted in `amount`). */
  fees: string | null;
  /** Money into the account's cash positive (a sale, a dividend), out negative (a buy, a fee). */
  amount: string;
  currencyCode: string;
  description: string;
  raw: Record<string, unknown>;
}
