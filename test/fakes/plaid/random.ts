import { createHash } from 'node:crypto';

/**
 * A deterministic pseudo-random sequence in [0, 1) for a key: mulberry32 seeded with the key's
 * FNV-1a hash. Test data only; the same key always gives the same sequence.
 */
export function randomFor(key: string): () => number {
  let state = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) state = Math.imul(state ^ key.charCodeAt(i), 0x01000193);
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** An integer in [min, max] drawn from `random`. */
export function between(random: () => number, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

export function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)]!;
}

/** `length` decimal digits drawn from `random`. */
export function digits(random: () => number, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += String(Math.floor(random() * 10));
  return out;
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
