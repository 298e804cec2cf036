import type { Middleware } from 'koa';
import { AppError } from '../errors.ts';
import type { FixedWindowLimiter } from '../lib/fixed-window.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { CredentialResolver } from './credentials.ts';
import { sessionTokenIn } from '../modules/operator/console-cookie.ts';
import { countCredentialLookup, countRequest } from './rate-limit.ts';
import type { AppState } from './state.ts';
import { setVersion } from './version.ts';

/**
 * Resolves the Authorization header, if any, into `ctx.state.credential`, and counts the request in
 * its rate-limit window (one second, 100 requests per credential) in an order that keeps a flood away from the database:
 * - a credential this process knows valid is counted in its own window, then re-checked when due;
 * - no credential, or one remembered invalid, is counted against the client address;
 * - a credential this process knows nothing about takes a slot of the client address's lookup budget
 *   before it is looked up (past 100/s: 429, no query), and is then counted as what it turned out to
 *   be: valid in its own window, invalid against the client address. So anonymous traffic from the
 *   same address (a NAT, an app's backend) cannot refuse a valid credential's first request.
 * A header that does not resolve is remembered rather than thrown, so the TLS guard and versioning
 * still run before `rejectInvalidCredential` answers 401. Whether an operation accepts a credential
 * is decided by the contract's `security` (REST) or the GraphQL front door.
 */
export function identify(resolver: CredentialResolver, limiter: FixedWindowLimiter, metrics: Metrics): Middleware<AppState> {
  return async (ctx, next) => {
    const header = ctx.protocol === 'https' ? ctx.get('Authorization') : '';
    // The console's session cookie counts only when no Authorization header is sent.
    const cookie = header || ctx.protocol !== 'https' ? undefined : sessionTokenIn(ctx.get('Cookie'));
    if (!header && !cookie) {
      await countRequest(ctx, limiter, metrics);
      await next();
      return;
    }
    const claim = cookie ? resolver.claimOperator(cookie, ctx.get('Tributary-Environment') || undefined) : await resolver.claim(header);
    if (claim.known) await countRequest(ctx, limiter, metrics, claim.known);
    try {
      ctx.state.credential = await claim.resolve(() => ctx.state.em, () => countCredentialLookup(ctx, limiter, metrics));
    } catch (error) {
      if (!(error instanceof AppError && error.status === 401)) throw error;
      ctx.state.credentialError = error;
    }
    // A known credential was counted in its own window, even if its re-check has just refused it.
    if (!claim.known) await countRequest(ctx, limiter, metrics, ctx.state.credential);
    await next();
  };
}

/** Answers 401 for an invalid credential; applies a valid credential's API version unless the request named one. */
export function rejectInvalidCredential(): Middleware<AppState> {
  return async (ctx, next) => {
    if (ctx.state.credentialError) throw ctx.state.credentialError;
    if (ctx.state.credential && !ctx.get('Service-Version')) setVersion(ctx, ctx.state.credential.apiVersion);
    await next();
  };
}
