import type { SecurityType } from '../provider-investments.ts';

/**
 * An instrument the sandbox's investment accounts trade, with its real public identifiers. Its price
 * walks from `anchorCents` (about its real close on 2024-01-01) by `driftPpm` ± `volatilityPpm`
 * (parts per million) each trading day; a split divides it by `split.ratio` every `split.everyDays`
 * days from `split.firstDay` (so every two-year history sees one).
 */
export interface SandboxSecurity {
  remoteId: string;
  name: string;
  tickerSymbol: string;
  isin: string | null;
  cusip: string | null;
  type: SecurityType;
  /** Fraction digits of a quantity: fractional shares 6, fund shares 3, crypto 8, cash 2. */
  quantityDigits: number;
  anchorCents: number;
  driftPpm: number;
  volatilityPpm: number;
  /** Trades every day (crypto); the others only Monday to Friday. */
  tradesDaily: boolean;
  split?: { ratio: number; firstDay: string; everyDays: number };
}

const stock = (remoteId: string, name: string, isin: string, cusip: string, anchorCents: number, driftPpm: number, volatilityPpm: number): SandboxSecurity => ({
  remoteId,
  name,
  tickerSymbol: remoteId,
  isin,
  cusip,
  type: 'EQUITY',
  quantityDigits: 6,
  anchorCents,
  driftPpm,
  volatilityPpm,
  tradesDaily: false,
});

export const SECURITIES = {
  AAPL: stock('AAPL', 'Apple Inc.', 'US0378331005', '037833100', 192_53, 400, 15_000),
  MSFT: stock('MSFT', 'Microsoft Corporation', 'US5949181045', '594918104', 376_04, 500, 14_000),
  // Its drift makes up for the halving at each split, so its price stays in the hundreds.
  NVDA: { ...stock('NVDA', 'NVIDIA Corporation', 'US67066G1040', '67066G104', 495_22, 1_400, 30_000), split: { ratio: 2, firstDay: '2024-06-10', everyDays: 700 } },
  VTI: { ...stock('VTI', 'Vanguard Total Stock Market ETF', 'US9229087690', '922908769', 237_22, 350, 10_000), type: 'ETF' },
  BND: { ...stock('BND', 'Vanguard Total Bond Market ETF', 'US9219378356', '921937835', 73_55, 50, 3_000), type: 'FIXED_INCOME' },
  VFIAX: { ...stock('VFIAX', 'Vanguard 500 Index Fund Admiral Shares', 'US9229087104', '922908710', 435_58, 400, 10_000), type: 'MUTUAL_FUND', quantityDigits: 3 },
  VBTLX: { ...stock('VBTLX', 'Vanguard Total Bond Market Index Fund Admiral Shares', 'US9219376038', '921937603', 9_76, 50, 3_000), type: 'MUTUAL_FUND', quantityDigits: 3 },
  VMFXX: { ...stock('VMFXX', 'Vanguard Federal Money Market Fund', 'US9229063006', '922906300', 1_00, 0, 0), type: 'CASH', quantityDigits: 2 },
  BTC: { remoteId: 'BTC', name: 'Bitcoin', tickerSymbol: 'BTC', isin: null, cusip: null, type: 'CRYPTOCURRENCY', quantityDigits: 8, anchorCents: 42_265_00, driftPpm: 1_000, volatilityPpm: 30_000, tradesDaily: true },
  // Uninvested cash, reported as a holding (as Plaid does), so an account's holdings add up to its balance.
  USD: { remoteId: 'CUR:USD', name: 'U.S. Dollar', tickerSymbol: 'CUR:USD', isin: null, cusip: null, type: 'CASH', quantityDigits: 2, anchorCents: 1_00, driftPpm: 0, volatilityPpm: 0, tradesDaily: true },
} satisfies Record<string, SandboxSecurity>;

export type SecurityKey = keyof typeof SECURITIES;
