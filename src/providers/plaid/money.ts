import { ProviderError } from '../provider-errors.ts';

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;
/** Plaid's servers write a float below 1e-6 in exponent form (`1e-08` BTC); larger exponents are not amounts. */
const MAX_EXPONENT = 20;

/**
 * A decimal value as Plaid sent it (the JSON number's own text; a number only if something bypassed
 * the exact parser), written out without an exponent by moving the decimal point, never through a float.
 */
export function decimal(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const text = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
  const parts = text === undefined ? null : DECIMAL.exec(text);
  const exponent = Number(parts?.[4] ?? 0);
  if (!parts || Math.abs(exponent) > MAX_EXPONENT) throw new ProviderError('ERROR_PROVIDER', 'Plaid sent an amount that is not a plain decimal');
  const [, sign, whole, fraction = ''] = parts;
  const digits = whole! + fraction;
  const point = whole!.length + exponent;
  const padded = point <= 0 ? '0'.repeat(1 - point) + digits : digits.padEnd(point, '0');
  const at = Math.max(point, 1);
  const integer = padded.slice(0, at).replace(/^0+(?=\d)/, '');
  const rest = padded.slice(at);
  return `${sign}${integer}${rest === '' ? '' : `.${rest}`}`;
}

/** The same amount with the other sign, exactly (zero stays unsigned). */
export function negate(amount: string): string {
  if (/^-?0+(\.0+)?$/.test(amount)) return amount.replace(/^-/, '');
  return amount.startsWith('-') ? amount.slice(1) : `-${amount}`;
}
