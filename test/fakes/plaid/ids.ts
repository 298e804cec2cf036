import { createHash } from 'node:crypto';

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
