import Koa, { type Middleware } from 'koa';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { FixedWindowLimiter } from '../lib/fixed-window.ts';
import { httpMetrics } from './http-metrics.ts';
import type { Metrics } from '../metrics/metrics.ts';
import { explorers } from '../pages/explorer/explorer.ts';
import { REST_ROUTES } from '../rest/routes.ts';
import { identify, rejectInvalidCredential } from './authenticate.ts';
import type { CredentialResolver } from './credentials.ts';
import type { DatabaseOutage } from '../db/database-outage.ts';
import { errorHandler } from './errors.ts';
import { jsonBody } from './json-body.ts';
import { requestContext } from './request-context.ts';
import { RequestState, type Databases } from './request-state.ts';
import type { AppState } from './state.ts';
import { operatorRequests } from './operator-requests.ts';
import { tlsGuard } from './tls-guard.ts';
import { versioning } from './version.ts';

export interface AppParts {
  logger: Logger;
  orm: MikroORM;
  /** The read replica, when one is configured. */
  replica?: MikroORM;
  trustProxy: boolean;
  /** Behind a trusted proxy: how many proxies append to X-Forwarded-For (the client is that many entries from the right). */
  trustProxyHops: number;
  credentials: CredentialResolver;
  limiter: FixedWindowLimiter;
  /** The GraphQL front door, mounted at /v1/graphql. */
  graphql: Middleware<AppState>;
  /** GraphQL subscriptions over server-sent events, mounted at /v1/graphql/stream (absent: 404). */
  graphqlStream?: Middleware<AppState>;
  /** The REST front door (every path of contracts/rest.yaml); it also answers unknown routes with 404. */
  rest: Middleware<AppState>;
  metrics: Metrics;
  /** Logs a database outage once, however many requests it refuses. */
  outage: DatabaseOutage;
  /** The operator console's page and assets (src/pages/console/console-pages.ts). */
  operatorConsole: Middleware<AppState>;
  /** PUBLIC_URL: an origin console requests may come from besides the request's own host. */
  publicUrl?: string;
  /** The service's clock (the audit log's times). */
  now?: () => Date;
}

const GRAPHQL_PATH = '/v1/graphql';
const GRAPHQL_STREAM_PATH = '/v1/graphql/stream';

/**
 * The request pipeline (docs/architecture.md, A request), after the request is matched to the REST contract's routes
 * (once: metrics and the REST front door both read `ctx.state.route`) and inside the metrics (every
 * request, whatever answers it): request id and security headers → errors →
 * credential and rate limit → TLS guard → version → 401 for a bad credential → a console session's
 * CSRF check and audit entry → JSON body → GraphQL or REST. The rate limiter runs before anything can refuse the request, so every response carries its
 * headers, and before the database is asked about an unfamiliar credential (see identify).
 */
export function createApp({ logger, orm, replica, trustProxy, trustProxyHops, credentials, limiter, graphql, graphqlStream, rest, metrics, outage, publicUrl, now = () => new Date(), operatorConsole }: AppParts): Koa<AppState> {
  // ctx.ip: the address the outermost trusted proxy saw (X-Forwarded-For, `trustProxyHops` from the
  // right), never an entry the client wrote itself.
  const app = new Koa<AppState>({ proxy: trustProxy, maxIpsCount: trustProxyHops });
  app.silent = true;
  const databases: Databases = { orm, replica, unforked: { em: orm.em, reads: replica ? replica.em : orm.em } };
  app.use((ctx, next) => {
    ctx.state = new RequestState(REST_ROUTES.match(ctx.method, ctx.path), logger, databases);
    return next();
  });
  app.use(httpMetrics(metrics, (ctx) => ([GRAPHQL_PATH, GRAPHQL_STREAM_PATH].includes(ctx.path) ? ctx.path : ctx.state.route?.template)));
  app.use(requestContext(logger));
  app.use(errorHandler(outage));
  app.use(identify(credentials, limiter, metrics));
  app.use(tlsGuard());
  app.use(versioning());
  app.use(rejectInvalidCredential());
  app.use(operatorRequests(publicUrl, now));
  app.use(jsonBody());
  // Browser pages (GraphiQL, the REST reference, the console) before the front doors: GraphiQL shares GraphQL's path.
  app.use(explorers());
  app.use(operatorConsole);
  app.use(async (ctx, next) => {
    const frontDoor = ctx.path === GRAPHQL_STREAM_PATH && graphqlStream ? graphqlStream : ctx.path === GRAPHQL_PATH ? graphql : rest;
    await frontDoor(ctx, next);
  });
  return app;
}
