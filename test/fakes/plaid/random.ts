import { createHash } from 'node:crypto';

// The sandbox's deterministic generator serves the fakes too: one mulberry32, one place.
export { between, digits, randomFor } from '../../../src/providers/sandbox/random.ts';

export function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)]!;
}

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A 37-character identifier shaped like Plaid's (item, account, transaction ids), derived from `parts`. */
export function plaidId(...parts: (string | number)[]): string {
  const hash = createHash('sha256').update(parts.join('\u0000')).digest();
  const second = createHash('sha256').update(hash).digest();
  return [...hash, ...second].slice(0, 37).map((byte) => BASE62[byte % 62]).join('');
}

/** A UUID-shaped identifier derived from `parts` (access tokens, key ids). */
export function uuidFrom(...parts: (string | number)[]): string {
  const hex = createHash('sha256').update(parts.join('\u0000')).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export const DAY_MS = 86_400_000;

/** Days since the Unix epoch of a UTC date. */
export function dayOf(date: Date): number {
  return Math.floor(date.getTime() / DAY_MS);
}

/** `YYYY-MM-DD` of a day number. */
export function isoDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}
