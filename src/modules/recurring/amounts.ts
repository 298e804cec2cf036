/*
 * Exact arithmetic on stored money (decimal text with at most four fraction digits, numeric(19,4)):
 * amounts become integers of ten-thousandths (bigint), so averages and comparisons never pass
 * through a float.
 */

const SCALE = 4;
const UNIT = 10n ** BigInt(SCALE);

/** A decimal string as an integer of ten-thousandths: `-15.49` → -154900n. */
export function toUnits(amount: string): bigint {
  const negative = amount.startsWith('-');
  const [whole = '0', fraction = ''] = amount.replace(/^[-+]/, '').split('.');
  const value = BigInt(whole || '0') * UNIT + BigInt((fraction + '0000').slice(0, SCALE));
  return negative ? -value : value;
}

/** The decimal text of `units` ten-thousandths with `digits` fraction digits (0–4), rounded half away from zero. */
export function fromUnits(units: bigint, digits: number): string {
  const step = 10n ** BigInt(SCALE - digits);
  const negative = units < 0n;
  const magnitude = negative ? -units : units;
  const rounded = (magnitude + step / 2n) / step;
  const text = rounded.toString().padStart(digits + 1, '0');
  const whole = text.slice(0, text.length - digits);
  const fraction = digits > 0 ? `.${text.slice(-digits)}` : '';
  return `${negative && rounded !== 0n ? '-' : ''}${whole}${fraction}`;
}

/** How many fraction digits an amount is written with (at most four). */
function fractionDigits(amount: string): number {
  const dot = amount.indexOf('.');
  return dot < 0 ? 0 : Math.min(SCALE, amount.replace(/0+$/, '').length - dot - 1);
}

/** The exact mean of `amounts` (not empty), with as many fraction digits as the most precise of them (at least two), rounded half away from zero. */
export function averageAmount(amounts: readonly string[]): string {
  const total = amounts.reduce((sum, amount) => sum + toUnits(amount), 0n);
  const digits = Math.max(2, ...amounts.map(fractionDigits));
  // One division, straight to the digits kept: rounding twice could move a half.
  const divisor = BigInt(amounts.length) * 10n ** BigInt(SCALE - digits);
  const mean = (magnitudeOf(total) * 2n + divisor) / (divisor * 2n);
  return fromUnits((total < 0n ? -mean : mean) * 10n ** BigInt(SCALE - digits), digits);
}

/** Whether `amount` lies within `percent` % of `reference` (by magnitude). */
export function withinPercent(amount: bigint, reference: bigint, percent: number): boolean {
  const difference = amount > reference ? amount - reference : reference - amount;
  const magnitude = reference < 0n ? -reference : reference;
  return difference * 100n <= magnitude * BigInt(percent);
}

/** The magnitude of an amount in units. */
export function magnitudeOf(units: bigint): bigint {
  return units < 0n ? -units : units;
}
