import { ProviderError } from '../provider.ts';

const DECIMAL = /^-?\d+(\.\d+)?$/;

/** A money value as Plaid sent it (decimal text; a number only if something bypassed the exact parser). */
export function decimal(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const text = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
  if (text === undefined || !DECIMAL.test(text)) throw new ProviderError('ERROR_PROVIDER', 'Plaid sent an amount that is not a plain decimal');
  return text.replace(/^(-?)0+(?=\d)/, '$1');
}

/** The same amount with the other sign, exactly (zero stays unsigned). */
export function negate(amount: string): string {
  if (/^-?0+(\.0+)?$/.test(amount)) return amount.replace(/^-/, '');
  return amount.startsWith('-') ? amount.slice(1) : `-${amount}`;
}
