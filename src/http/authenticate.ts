import type { Middleware } from 'koa';
import { AppError } from '../errors.ts';
import type { CredentialResolver } from './credentials.ts';
import type { AppState } from './state.ts';
import { setVersion } from './version.ts';

/**
 * Resolves the Authorization header, if any, into `ctx.state.credential`. A header that does not
 * resolve is remembered rather than thrown, so the rate limiter can still count the request (by
 * client address) before `rejectInvalidCredential` answers 401. Whether an operation accepts a
 * credential is decided by the contract's `security` (REST) or the GraphQL front door.
 */
export function identify(resolver: CredentialResolver): Middleware<AppState> {
  return async (ctx, next) => {
    const header = ctx.get('Authorization');
    if (header && ctx.protocol === 'https') {
      try {
        ctx.state.credential = await resolver.resolve(ctx.state.em, header);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        ctx.state.credentialError = error;
      }
    }
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
