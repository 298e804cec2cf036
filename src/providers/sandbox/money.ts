/** Integer cents to an exact decimal string: -5678 → "-56.78". No floating point is involved. */
export function centsToDecimal(cents: number): string {
  return unitsToDecimal(cents, 2);
}

/** A whole number of 10^-digits units to an exact decimal string: (123456789, 8) → "1.23456789". */
export function unitsToDecimal(units: number, digits: number): string {
  if (!Number.isSafeInteger(units)) throw new RangeError(`not a whole number of units: ${units}`);
  const sign = units < 0 ? '-' : '';
  const abs = String(Math.abs(units)).padStart(digits + 1, '0');
  return digits === 0 ? `${sign}${abs}` : `${sign}${abs.slice(0, -digits)}.${abs.slice(-digits)}`;
}

/** `units` (10^-digits each) at `priceCents` apiece, in cents rounded half up; exact through BigInt. */
export function valueCents(units: number, digits: number, priceCents: number): number {
  const scale = 10n ** BigInt(digits);
  const product = BigInt(units) * BigInt(priceCents);
  const sign = product < 0n ? -1n : 1n;
  return Number(sign * ((sign * product * 2n + scale) / (2n * scale)));
}

/** The most whole units (10^-digits each) that `cents` buys at `priceCents` apiece. */
export function unitsFor(cents: number, digits: number, priceCents: number): number {
  return Number((BigInt(cents) * 10n ** BigInt(digits)) / BigInt(priceCents));
}

/** `cents` × part / whole, rounded half up; exact through BigInt (a position's cost for the units sold). */
export function shareOf(cents: number, part: number, whole: number): number {
  return Number((BigInt(cents) * BigInt(part) * 2n + BigInt(whole)) / (2n * BigInt(whole)));
}
