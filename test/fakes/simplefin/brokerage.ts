import { centsToDecimal } from '../../../src/providers/sandbox/money.ts';
import { between, randomFor } from '../../../src/providers/sandbox/random.ts';
import { uuidFrom } from '../plaid/ids.ts';
import { DAY } from './activity.ts';

/**
 * A holding as the SimpleFIN Bridge reports it in an account's `holdings`, in both protocol versions:
 * decimal strings; `cost_basis` is what the whole position cost and `purchase_price` the average paid
 * per share, both left out when the institution does not say; `currency` left out by some institutions.
 */
export interface BridgeHolding {
  id: string;
  created: number;
  currency?: string;
  cost_basis?: string;
  description: string;
  market_value: string;
  purchase_price?: string;
  shares: string;
  symbol: string;
}

interface Position {
  symbol: string;
  description: string;
  /** Fractional, with the institution's precision. */
  shares: string;
  /** Price on any day is within 4% of this; a money market fund's never moves. */
  priceCents: number;
  stable: boolean;
  costBasis: string | null;
  purchasePrice: string | null;
  currency: string | null;
}

const POSITIONS: readonly Position[] = [
  { symbol: 'VTI', description: 'Vanguard Total Stock Market ETF', shares: '12.5', priceCents: 290_00, stable: false, costBasis: '2750.00', purchasePrice: '220.00', currency: 'USD' },
  // The institution does not say what was paid.
  { symbol: 'AAPL', description: 'Apple Inc. Common Stock', shares: '3.141593', priceCents: 230_00, stable: false, costBasis: null, purchasePrice: null, currency: 'USD' },
  // Crypto to eight places; no currency: the account's.
  { symbol: 'BTC', description: 'Bitcoin', shares: '0.01234567', priceCents: 97_000_00, stable: false, costBasis: '600.00', purchasePrice: '48600.03', currency: null },
  { symbol: 'VMFXX', description: 'Vanguard Federal Money Market Fund', shares: '1520.37', priceCents: 1_00, stable: true, costBasis: '1520.37', purchasePrice: '1.00', currency: 'USD' },
];

/** A brokerage account's cash and positions; prices move daily, drawn from the seed and the day. */
export class FakeBrokerage {
  cashCents: number;
  readonly #positions: Position[] = [...POSITIONS];
  readonly #seed: string;
  readonly #openedAt: number;

  constructor(seed: string, cashCents: number, openedAt: number) {
    this.#seed = seed;
    this.cashCents = cashCents;
    this.#openedAt = openedAt;
  }

  /** The positions as the bridge reports them at `at` (unix seconds), valued at that day's prices. */
  holdings(at: number): BridgeHolding[] {
    return this.#positions.map((position) => ({
      id: `HOL-${uuidFrom(this.#seed, 'holding', position.symbol)}`,
      created: this.#openedAt,
      ...(position.currency === null ? {} : { currency: position.currency }),
      ...(position.costBasis === null ? {} : { cost_basis: position.costBasis }),
      description: position.description,
      market_value: centsToDecimal(this.#valueCents(position, at)),
      ...(position.purchasePrice === null ? {} : { purchase_price: position.purchasePrice }),
      shares: position.shares,
      symbol: position.symbol,
    }));
  }

  /** Cash plus the positions' market value at `at`. */
  balanceCents(at: number): number {
    return this.#positions.reduce((sum, position) => sum + this.#valueCents(position, at), this.cashCents);
  }

  /** Sells the whole position at `at`'s price into cash. */
  sell(symbol: string, at: number): void {
    const index = this.#positions.findIndex((position) => position.symbol === symbol);
    if (index < 0) throw new Error(`the brokerage holds no ${symbol}`);
    this.cashCents += this.#valueCents(this.#positions[index]!, at);
    this.#positions.splice(index, 1);
  }

  /** shares × the day's price, rounded half up to the cent, exactly. */
  #valueCents(position: Position, at: number): number {
    const [whole, fraction = ''] = position.shares.split('.');
    const scale = 10n ** BigInt(fraction.length);
    const units = BigInt(`${whole}${fraction}`);
    return Number((units * BigInt(this.#priceCents(position, at)) * 2n + scale) / (2n * scale));
  }

  #priceCents(position: Position, at: number): number {
    if (position.stable) return position.priceCents;
    const permille = 1000 + between(randomFor(`${this.#seed}:${position.symbol}:${Math.floor(at / DAY)}`), -40, 40);
    return Math.round((position.priceCents * permille) / 1000);
  }
}
