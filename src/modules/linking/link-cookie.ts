import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** The callback's path: where redirect providers send the end-user back (contracts/rest.yaml, completeLinkRedirect). */
export const CALLBACK_PATH = '/v1/connect/callback';

/**
 * The cookie that binds a redirect link to the browser that started it. Only the callback receives
 * it (path-scoped); HttpOnly, so no script reads it; SameSite=Lax, so the bank's top-level GET
 * navigation back brings it while other sites' requests do not. See
 * docs/decisions/linking-redirect-state-and-cookie.md.
 */
const COOKIE = 'tributary_link';

/** A fresh secret of 256 random bits: a link's `state`, or its browser binding. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** How secrets are kept: their SHA-256 (a leaked table row cannot be replayed). */
export function hashOf(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Whether `secret` hashes to `hash`, in constant time. */
export function matchesHash(secret: string | undefined, hash: string): boolean {
  if (secret === undefined) return false;
  const actual = Buffer.from(hashOf(secret), 'hex');
  const expected = Buffer.from(hash, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

export function linkCookie(secret: string, maxAgeSeconds: number): string {
  return `${COOKIE}=${secret}; Path=${CALLBACK_PATH}; Max-Age=${maxAgeSeconds}; HttpOnly; Secure; SameSite=Lax`;
}

/** The link cookie's value in a Cookie header, if any. */
export function linkCookieOf(header: string | undefined): string | undefined {
  for (const pair of (header ?? '').split(';')) {
    const [name, value] = pair.trim().split('=', 2);
    if (name === COOKIE && value) return value;
  }
  return undefined;
}
