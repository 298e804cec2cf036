/**
 * Exact arithmetic on decimal strings (`-12.5`, `0.01234567`) through BigInt, for the adapters: what
 * a holding's price, an aggregated position and a sign test need, without a float anywhere.
 */

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

interface Scaled {
  units: bigint;
  scale: number;
}

export function isDecimal(text: string): boolean {
  return DECIMAL.test(text);
}

export function isZero(text: string): boolean {
  return scaled(text).units === 0n;
}

/** Whether the decimal is above zero. */
export function isPositive(text: string): boolean {
  return scaled(text).units > 0n;
}

/** The exact sum of decimal strings, with the most fraction digits any of them has (`1.10` + `2.90` = `4.00`). */
export function sum(values: string[]): string {
  const parts = values.map(scaled);
  const scale = Math.max(0, ...parts.map((part) => part.scale));
  return format(parts.reduce((total, part) => total + part.units * 10n ** BigInt(scale - part.scale), 0n), scale);
}

/** `dividend ÷ divisor` rounded half away from zero to `digits` fraction digits, trailing zeros dropped. */
export function quotient(dividend: string, divisor: string, digits: number): string {
  const a = scaled(dividend);
  const b = scaled(divisor);
  if (b.units === 0n) throw new RangeError('division by zero');
  // (a.units / 10^a.scale) / (b.units / 10^b.scale) × 10^digits, as one integer division.
  const exponent = digits + b.scale - a.scale;
  const numerator = a.units * 10n ** BigInt(Math.max(0, exponent)) * 2n;
  const denominator = b.units * 10n ** BigInt(Math.max(0, -exponent));
  const negative = numerator < 0n !== denominator < 0n;
  const magnitude = (abs(numerator) / abs(denominator) + 1n) / 2n;
  return format(negative ? -magnitude : magnitude, digits).replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');
}

function scaled(text: string): Scaled {
  const match = DECIMAL.exec(text);
  if (!match) throw new RangeError(`not a decimal string: ${text}`);
  const fraction = match[3] ?? '';
  const units = BigInt(`${match[2]}${fraction}`);
  return { units: match[1] === '-' ? -units : units, scale: fraction.length };
}

function format(units: bigint, scale: number): string {
  const digits = abs(units).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale);
  return `${units < 0n ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

function abs(value: bigint): bigint {
  return value < 0n ? -value : value;
}
