import type { Middleware } from 'koa';
import { resolveCredential } from './credentials.ts';
import type { AppState } from './state.ts';
import { setVersion } from './version.ts';

/**
 * Resolves the Authorization header, if any, into `ctx.state.credential`. Whether an operation accepts
 * that credential is decided by the contract's `security` (REST) or the GraphQL front door.
 */
export function authenticate(): Middleware<AppState> {
  return async (ctx, next) => {
    const header = ctx.get('Authorization');
    ctx.state.credential = header ? await resolveCredential(ctx.state.em, header) : undefined;
    if (ctx.state.credential && !ctx.get('Service-Version')) setVersion(ctx, ctx.state.credential.apiVersion);
    await next();
  };
}
