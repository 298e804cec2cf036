import type { Middleware } from 'koa';
import { AppError } from '../errors.ts';
import type { AppState } from './state.ts';

/**
 * HTTPS only: a request that did not arrive over TLS is refused before any handler sees it.
 * Behind a trusted proxy (TRUST_PROXY=true, Koa's `proxy`), X-Forwarded-Proto decides.
 */
export function tlsGuard(): Middleware<AppState> {
  return async (ctx, next) => {
    if (ctx.protocol !== 'https') {
      throw new AppError(403, 'HTTPS_REQUIRED', 'Tributary is served over HTTPS only; this request arrived over plain HTTP and was not processed', {
        instruction: `Send the request to https://${ctx.host}${ctx.path}`,
      });
    }
    await next();
  };
}
