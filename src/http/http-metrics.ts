import type { Middleware } from 'koa';
import type { AppContext, AppState } from './state.ts';
import type { Metrics } from '../metrics/metrics.ts';

/**
 * Records every request's method, route and final status, and how long the pipeline took with it.
 * The route (`routeOf`) is the path template the request falls under, whatever answered it, so a 401
 * or 429 counts against the route it was for; never the raw path.
 */
export function httpMetrics(metrics: Metrics, routeOf: (ctx: AppContext) => string | undefined): Middleware<AppState> {
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      metrics.httpRequest(ctx.method, routeOf(ctx), ctx.status, (performance.now() - started) / 1000);
    }
  };
}
