import type { Middleware } from 'koa';
import { CURRENT_VERSION, SUPPORTED_VERSIONS } from '../config.ts';
import { AppError } from '../errors.ts';
import type { AppState } from './state.ts';

/**
 * API versioning: the `Service-Version` request header, when given, must name a supported version and
 * wins; otherwise the credential's version applies (set by the auth middleware), else the current one.
 * The response always names the version used, errors included.
 */
export function versioning(): Middleware<AppState> {
  return async (ctx, next) => {
    const requested = ctx.get('Service-Version');
    if (requested) {
      if (!(SUPPORTED_VERSIONS as readonly string[]).includes(requested)) {
        throw new AppError(400, 'UNSUPPORTED_VERSION', `Unsupported Service-Version "${requested.slice(0, 40)}"; supported versions: ${SUPPORTED_VERSIONS.join(', ')}`, {
          instruction: `Send Service-Version: ${CURRENT_VERSION}, or omit the header to use your API key's version.`,
        });
      }
      setVersion(ctx, requested);
    }
    await next();
  };
}

/** Records the version that processes the request and names it in the response (which names the current one already). */
export function setVersion(ctx: { state: AppState; set(name: string, value: string): void }, version: string): void {
  if (ctx.state.version === version) return;
  ctx.state.version = version;
  ctx.set('Service-Version', version);
}
