import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { CURRENT_VERSION } from '../config.ts';
import { setSecurityHeaders } from './security-headers.ts';
import type { AppState } from './state.ts';

const ACCEPTABLE_ID = /^[\w.:-]{1,200}$/;

/**
 * Gives every request an id (the caller's X-Request-Id when it is a sane token, else a new one),
 * echoes it with the security headers and the current version (the credential's may replace it),
 * and logs one line per request with its outcome. No bodies, queries or headers are logged.
 */
export function requestContext(logger: Logger): Middleware<AppState> {
  return async (ctx, next) => {
    const given = ctx.get('X-Request-Id');
    const requestId = ACCEPTABLE_ID.test(given) ? given : newRequestId();
    ctx.state.requestId = requestId;
    // On the raw response, as setSecurityHeaders does: this runs first, before anything is sent.
    setSecurityHeaders(ctx.res, ctx.secure, ctx.path);
    ctx.res.setHeader('X-Request-Id', requestId);
    ctx.res.setHeader('Service-Version', CURRENT_VERSION);
    const started = performance.now();
    try {
      await next();
    } finally {
      if (logger.isLevelEnabled('info')) ctx.state.log.info(
        { method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round((performance.now() - started) * 10) / 10 },
        'request',
      );
    }
  };
}

/** A fresh request id, for requests that did not bring a usable one. */
export function newRequestId(): string {
  return `req_${randomUUID().replaceAll('-', '')}`;
}
