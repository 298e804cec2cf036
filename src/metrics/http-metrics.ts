import type { Middleware } from 'koa';
import type { AppState } from '../http/state.ts';
import { routeMatcher } from '../rest/routes.ts';
import type { Metrics } from './metrics.ts';

/**
 * Records every request's method, route and final status, and how long the pipeline took with it.
 * The route is the path template the request falls under (`routes`: the REST contract's and
 * GraphQL's), whatever answered it, so a 401 or 429 counts against the route it was for.
 */
export function httpMetrics(metrics: Metrics, routes: string[]): Middleware<AppState> {
  const routeOf = routeMatcher(routes);
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      metrics.httpRequest(ctx.method, routeOf(ctx.path), ctx.status, (performance.now() - started) / 1000);
    }
  };
}
