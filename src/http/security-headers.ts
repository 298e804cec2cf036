import type { Middleware } from 'koa';
import type { AppState } from './state.ts';

/** On every response: browsers must not guess another content type than the one declared. */
export const NO_SNIFF = { 'X-Content-Type-Options': 'nosniff' } as const;
/** On responses sent over HTTPS: browsers keep to HTTPS for this host for a year. */
export const STRICT_TRANSPORT = { 'Strict-Transport-Security': 'max-age=31536000' } as const;
/** On API responses (they carry personal data and account numbers): no cache may keep a copy. */
export const NO_STORE = { 'Cache-Control': 'no-store' } as const;

/**
 * Sets the headers above before anything else runs, so error responses carry them too; a handler
 * may still set its own (the connector page sends its own Content-Security-Policy). HTTPS is
 * `ctx.secure`, which follows X-Forwarded-Proto behind a trusted proxy.
 */
export function securityHeaders(): Middleware<AppState> {
  return async (ctx, next) => {
    ctx.set(NO_SNIFF);
    if (ctx.secure) ctx.set(STRICT_TRANSPORT);
    if (ctx.path.startsWith('/v1/')) ctx.set(NO_STORE);
    await next();
  };
}
