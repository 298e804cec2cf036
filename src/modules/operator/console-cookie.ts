import { createHash, createHmac, randomBytes } from 'node:crypto';

/**
 * The console session's cookie (docs/decisions/operators-console-session.md): `__Secure-` (the
 * browser keeps it only from HTTPS with Secure), HttpOnly (no script reads it), SameSite=Strict (no
 * other site's page sends it) and Path=/v1 (the API the console calls, not the pages around it).
 */
export const CONSOLE_COOKIE = '__Secure-tributary-operator';
const ATTRIBUTES = 'Path=/v1; HttpOnly; Secure; SameSite=Strict';

/** A new session token: 256 random bits. */
export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What is stored of a session token: its SHA-256 (a database read gives no usable cookie). */
export function sessionTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * The session's CSRF token, derived from its cookie's token (HMAC-SHA256 keyed by it), so it is
 * per session, needs no storage, and tells nothing of the cookie.
 */
export function csrfTokenOf(token: string): string {
  return createHmac('sha256', token).update('tributary console csrf').digest('base64url');
}

/** The Set-Cookie value that gives the browser `token` for `maxAgeSeconds`. */
export function sessionCookie(token: string, maxAgeSeconds: number): string {
  return `${CONSOLE_COOKIE}=${token}; Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}; ${ATTRIBUTES}`;
}

/** The Set-Cookie value that removes the session cookie. */
export function clearedSessionCookie(): string {
  return `${CONSOLE_COOKIE}=; Max-Age=0; ${ATTRIBUTES}`;
}

/** The session token a Cookie header carries, if any. */
export function sessionTokenIn(cookieHeader: string | undefined): string | undefined {
  return cookieIn(cookieHeader, CONSOLE_COOKIE);
}

/** The value of cookie `name` in a Cookie header, if it is there and not empty. */
export function cookieIn(cookieHeader: string | undefined, name: string): string | undefined {
  if (!cookieHeader) return undefined;
  for (const pair of cookieHeader.split(';')) {
    const separator = pair.indexOf('=');
    if (separator > 0 && pair.slice(0, separator).trim() === name) return pair.slice(separator + 1).trim() || undefined;
  }
  return undefined;
}
