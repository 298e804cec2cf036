import type { ServerResponse } from 'node:http';

/** On every response: browsers must not guess another content type than the one declared. */
export const NO_SNIFF = { 'X-Content-Type-Options': 'nosniff' } as const;
/** On responses sent over HTTPS: browsers keep to HTTPS for this host for a year. */
export const STRICT_TRANSPORT = { 'Strict-Transport-Security': 'max-age=31536000' } as const;
/** On API responses (they carry personal data and account numbers): no cache may keep a copy. */
export const NO_STORE = { 'Cache-Control': 'no-store' } as const;

/** The four combinations of the headers above, by [over HTTPS][an API path], made once. */
const SETS = [false, true].map((secure) => [false, true].map((api) => Object.entries({ ...NO_SNIFF, ...(secure ? STRICT_TRANSPORT : {}), ...(api ? NO_STORE : {}) })));

/**
 * Sets the headers above on a response before anything else runs, so error responses carry them
 * too; a handler may still set its own (the connector page sends its own Content-Security-Policy).
 * HTTPS is `ctx.secure`, which follows X-Forwarded-Proto behind a trusted proxy. They go straight to
 * the raw response: Koa's `ctx.set` allocates arrays per header to normalise names and values these
 * constants do not need, and nothing can have been sent yet.
 */
export function setSecurityHeaders(res: ServerResponse, secure: boolean, path: string): void {
  for (const [name, value] of SETS[Number(secure)]![Number(path.startsWith('/v1/'))]!) res.setHeader(name, value);
}
